import { AccountAddRequest, AccountUpdateRequest, type Account } from '@bwc/protocol';
import { z } from 'zod';

/**
 * The account dialog's schemas: the protocol's requests, plus (when adding) the repeated password
 * with the same messages as the change-password dialog (spec part 1 section 5).
 */
export const AccountAddForm = AccountAddRequest.extend({
  confirm_password: z
    .string({ error: 'validation.password.confirmRequired' })
    .min(1, { error: 'validation.password.confirmRequired' }),
}).refine((v) => v.password === v.confirm_password, {
  error: 'validation.password.mismatch',
  path: ['confirm_password'],
});
export type AccountAddForm = z.infer<typeof AccountAddForm>;

export const AccountEditForm = AccountUpdateRequest.omit({ id: true });
export type AccountEditForm = z.infer<typeof AccountEditForm>;

/** The add request of a validated form (the confirmation stays in the browser). */
export function addRequestOf(values: AccountAddForm): AccountAddRequest {
  const { confirm_password: _confirm, ...request } = values;
  return request;
}

/** Form values of an existing account. */
export function editValuesOf(account: Account): Record<string, unknown> {
  return {
    hostname: account.hostname,
    phone: account.phone,
    unit_id: account.unit_id,
    role_id: account.role_id,
    ifadmin: account.ifadmin,
  };
}
