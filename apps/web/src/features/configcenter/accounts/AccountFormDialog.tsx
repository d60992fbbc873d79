import { PASSWORD_SET_MAX, type Account } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, Modal, Select, Switch } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { validateWith, zodRules } from '../../../app/forms/zodRules';
import { UnitTreeSelect } from '../../../components/unit-tree';
import { configKeys, isUnitNode, loadUnitLevel } from '../configcenter.api';
import { UnitPicker } from '../units/UnitPicker';
import type { UnitRow } from '../units/unitTree';
import { AccountAddForm, AccountEditForm, addRequestOf, editValuesOf } from './accountForm';

interface AccountFormDialogProps {
  /** 'new' to add, an account to edit, null when closed */
  editing: Account | 'new' | null;
  /** every unit of the caller's scope, when he may list them (view on UnitAdmin) */
  units: readonly UnitRow[];
  unitsListed: boolean;
  /** only an administrator may make administrators */
  isAdmin: boolean;
  onClose: () => void;
  onSaved: () => void;
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

const addRules = zodRules(AccountAddForm);
const editRules = zodRules(AccountEditForm);

/** Add an account (login name, password twice, person, phone, unit, role) or edit one (not its name or password). */
export function AccountFormDialog({ editing, units, unitsListed, isAdmin, onClose, onSaved }: AccountFormDialogProps) {
  const { t } = useTranslation('configcenter');
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  // while the dialog closes it keeps showing what it showed
  const last = useRef(editing);
  if (editing !== null) last.current = editing;
  const shown = last.current;
  const adding = shown === 'new';
  const shownAccount = shown !== null && shown !== 'new' ? shown : null;
  const rules = adding ? addRules : editRules;
  const roles = useQuery({
    queryKey: configKeys.roleOptions,
    queryFn: ({ signal }) => call('roleOptions', undefined, { signal }),
    enabled: editing !== null,
  });

  useEffect(() => {
    if (!editing) return;
    form.resetFields();
    form.setFieldsValue(editing === 'new' ? { ifadmin: 0, phone: '' } : editValuesOf(editing));
  }, [editing, form]);

  const submit = async () => {
    if (!editing) return;
    // validate first: the dialog is busy only while the server works
    const request =
      editing === 'new'
        ? { api: 'accountAdd' as const, body: addRequestOf(await validateWith(form, AccountAddForm)) }
        : { api: 'accountUpdate' as const, body: { id: editing.id, ...(await validateWith(form, AccountEditForm)) } };
    setSaving(true);
    try {
      await call(request.api, request.body, { success: true });
      onSaved();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={editing !== null}
      title={
        adding ? t('accounts.form.addTitle') : t('accounts.form.editTitle', { name: shownAccount?.username ?? '' })
      }
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
      okText={t('action.save')}
      confirmLoading={saving}
      width={560}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" disabled={saving} name="account-form" autoComplete="off">
        {adding && (
          <>
            <Form.Item
              name="username"
              label={t('accounts.form.username')}
              rules={rules('username')}
              required
              extra={t('accounts.form.usernameHelp')}
            >
              <Input autoComplete="off" />
            </Form.Item>
            <Form.Item
              name="password"
              label={t('accounts.form.password')}
              rules={rules('password')}
              required
              extra={t('accounts.form.passwordHelp')}
            >
              <Input.Password autoComplete="new-password" maxLength={PASSWORD_SET_MAX} />
            </Form.Item>
            <Form.Item
              name="confirm_password"
              label={t('accounts.form.confirmPassword')}
              rules={rules('confirm_password')}
              dependencies={['password']}
              required
            >
              <Input.Password autoComplete="new-password" maxLength={PASSWORD_SET_MAX} />
            </Form.Item>
          </>
        )}
        <Form.Item name="hostname" label={t('accounts.form.hostname')} rules={rules('hostname')} required>
          <Input maxLength={50} />
        </Form.Item>
        <Form.Item name="phone" label={t('accounts.form.phone')} rules={rules('phone')}>
          <Input maxLength={20} />
        </Form.Item>
        <Form.Item name="unit_id" label={t('accounts.form.unit')} rules={rules('unit_id')} required>
          {unitsListed ? <UnitPicker units={units} /> : <LazyUnitField />}
        </Form.Item>
        <Form.Item name="role_id" label={t('accounts.form.role')} rules={rules('role_id')} required>
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
            getValueProps={(value) => ({ checked: value === 1 })}
            getValueFromEvent={(checked: boolean) => (checked ? 1 : 0)}
          >
            <Switch />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
