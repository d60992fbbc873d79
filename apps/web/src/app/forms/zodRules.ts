import { issueParams } from '@bwc/protocol';
import type { FormInstance, FormRule } from 'antd';
import type { z } from 'zod';
import { translateKey } from '../../i18n';

/**
 * Form validation with the shared protocol schemas, messages translated (`validation.*` keys).
 *
 *   const rules = zodRules(PasswordForm);
 *   <Form.Item name="new_password" rules={rules('new_password')} required>
 *
 * Each field's rule validates the WHOLE form's current values with the schema and reports the
 * issues whose path starts with that field, so object-level refinements (such as the
 * confirmation that must equal the new password) land on the right field. Empty inputs
 * (undefined) are validated as '' so that "required" messages come from the schema.
 */
export function zodRules<S extends z.ZodType>(schema: S) {
  return (field: string): FormRule[] => [
    (form) => ({
      validator: async () => {
        const message = fieldError(schema, normalise(schema, form.getFieldsValue(true)), field);
        if (message) throw new Error(message);
      },
    }),
  ];
}

/** Rules for a single value checked by its own schema (no cross-field refinements). */
export function zodFieldRules(schema: z.ZodType): FormRule[] {
  return [
    {
      validator: async (_rule, value: unknown) => {
        const result = schema.safeParse(value === undefined ? '' : value);
        const issue = result.error?.issues[0];
        if (issue) throw new Error(translateKey(issue.message, issueParams(issue)));
      },
    },
  ];
}

/** Translated first error of `field`, or null. */
export function fieldError(schema: z.ZodType, values: Record<string, unknown>, field: string): string | null {
  const result = schema.safeParse(values);
  if (result.success) return null;
  const issue = result.error.issues.find((i) => String(i.path[0]) === field);
  return issue ? translateKey(issue.message, issueParams(issue)) : null;
}

/**
 * The form's fields passed their rules but the schema still fails: its issues concern keys that no
 * field shows (no Form.Item, or one without the schema's rules) or the whole object, so nobody sees
 * them under a field. A fault of the form (e.g. a request key the form never has: omit it from the
 * form's schema or set it into the form); its message names the keys, for the top of the form.
 */
export class UnshownFormIssues extends Error {
  readonly keys: string[];
  constructor(readonly issues: readonly z.core.$ZodIssue[]) {
    const keys = [...new Set(issues.map((i) => i.path.map(String).join('.') || '-'))];
    const first = issues[0];
    super(
      translateKey('common.form.unshownIssues', {
        keys: keys.join(', '),
        message: first ? translateKey(first.message, issueParams(first)) : '',
      }),
    );
    this.name = 'UnshownFormIssues';
    this.keys = keys;
  }
}

/**
 * Validated and parsed values (schema defaults applied), or throws as antd's validateFields does
 * (the messages stand under the fields); when the fields pass but the schema does not, throws
 * UnshownFormIssues, which the caller shows (a form dialog at its top).
 */
export async function validateWith<S extends z.ZodType>(form: FormInstance, schema: S): Promise<z.infer<S>> {
  await form.validateFields();
  const result = schema.safeParse(normalise(schema, form.getFieldsValue(true)));
  if (!result.success) throw new UnshownFormIssues(result.error.issues);
  return result.data as z.infer<S>;
}

/**
 * Fields the user has not touched yet are missing from the form store; they are validated as ''
 * (like an emptied input) so that the schema's own "required" messages apply and object-level
 * refinements still run.
 */
function normalise(schema: z.ZodType, values: Record<string, unknown>): Record<string, unknown> {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  const keys = new Set([...Object.keys(shape ?? {}), ...Object.keys(values ?? {})]);
  return Object.fromEntries([...keys].map((k) => [k, values?.[k] === undefined ? '' : values[k]]));
}
