import { PASSWORD_SET_MAX, ResultCode, type Account } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { flagSwitchProps } from '../../../app/forms/flagSwitch';
import { FormDialog, useFormDialog, type FormDialogTargetProps } from '../../../components/form-dialog';
import { UnitTreeSelect } from '../../../components/unit-tree';
import { configKeys } from '../configcenter.api';
import { isUnitNode, loadUnitLevel } from '../../../components/unit-tree';
import { UnitPicker } from '../units/UnitPicker';
import type { UnitRow } from '../units/unitTree';
import { AccountAddForm, AccountEditForm, addRequestOf, editValuesOf } from './accountForm';

interface AccountFormDialogProps extends FormDialogTargetProps<Account> {
  /** every unit of the caller's scope, when he may list them (view on UnitAdmin) */
  units: readonly UnitRow[];
  unitsListed: boolean;
  /** only an administrator may make administrators */
  isAdmin: boolean;
}

/** Unit field for a caller who may not list units: the lazy unit tree selector (session-wide `gdlist`). */
function LazyUnitField({
  value,
  onChange,
  id,
}: {
  value?: number;
  onChange?: (value: number | undefined) => void;
  id?: string;
}) {
  return (
    <span id={id}>
      <UnitTreeSelect
        loader={loadUnitLevel}
        selectableNode={isUnitNode}
        value={value === undefined ? undefined : String(value)}
        onChange={(next) => onChange?.(typeof next === 'string' && next !== '' ? Number(next) : undefined)}
        width={472}
      />
    </span>
  );
}

/** Add an account (login name, password twice, person, phone, unit, role) or edit one (not its name or password). */
export function AccountFormDialog({ units, unitsListed, isAdmin, ...props }: AccountFormDialogProps) {
  const { t } = useTranslation('configcenter');
  const dialog = useFormDialog({
    ...props,
    schema: AccountAddForm,
    updateSchema: AccountEditForm,
    initial: (account) => (account ? editValuesOf(account) : { ifadmin: 0, phone: '' }),
    create: (values) => call('accountAdd', addRequestOf(values), { success: true }),
    update: (values, account) => call('accountUpdate', { id: account.id, ...values }, { success: true }),
    // the server refuses a login name in use with 409 `用户名 x 已存在`: show it under the name
    refusalField: (failure) => (failure.code === ResultCode.CONFLICT ? 'username' : null),
  });
  const roles = useQuery({
    queryKey: configKeys.roleOptions,
    queryFn: ({ signal }) => call('roleOptions', undefined, { signal }),
    enabled: dialog.open,
  });
  const adding = dialog.creating;

  return (
    <FormDialog
      dialog={dialog}
      name="account-form"
      formProps={{ autoComplete: 'off' }}
      title={adding ? t('accounts.form.addTitle') : t('accounts.form.editTitle', { name: dialog.row?.username ?? '' })}
      okText={t('action.save')}
      width={560}
    >
      {adding && (
        <>
          <Form.Item
            name="username"
            label={t('accounts.form.username')}
            rules={dialog.rules('username')}
            required
            extra={t('accounts.form.usernameHelp')}
          >
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="password"
            label={t('accounts.form.password')}
            rules={dialog.rules('password')}
            required
            extra={t('accounts.form.passwordHelp')}
          >
            <Input.Password autoComplete="new-password" maxLength={PASSWORD_SET_MAX} />
          </Form.Item>
          <Form.Item
            name="confirm_password"
            label={t('accounts.form.confirmPassword')}
            rules={dialog.rules('confirm_password')}
            dependencies={['password']}
            required
          >
            <Input.Password autoComplete="new-password" maxLength={PASSWORD_SET_MAX} />
          </Form.Item>
        </>
      )}
      <Form.Item name="hostname" label={t('accounts.form.hostname')} rules={dialog.rules('hostname')} required>
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item name="phone" label={t('accounts.form.phone')} rules={dialog.rules('phone')}>
        <Input maxLength={20} />
      </Form.Item>
      <Form.Item name="unit_id" label={t('accounts.form.unit')} rules={dialog.rules('unit_id')} required>
        {unitsListed ? <UnitPicker units={units} /> : <LazyUnitField />}
      </Form.Item>
      <Form.Item name="role_id" label={t('accounts.form.role')} rules={dialog.rules('role_id')} required>
        <Select
          loading={roles.isFetching}
          placeholder={t('accounts.form.pickRole')}
          options={(roles.data ?? []).map((role) => ({ value: role.id, label: role.name }))}
          showSearch
          optionFilterProp="label"
        />
      </Form.Item>
      {isAdmin && (
        <Form.Item
          name="ifadmin"
          label={t('accounts.form.ifadmin')}
          extra={t('accounts.form.ifadminHelp')}
          {...flagSwitchProps}
        >
          <Switch />
        </Form.Item>
      )}
    </FormDialog>
  );
}
