import { UNIT_CODE_LENGTH, UNIT_NAME_MAX, UnitAddRequest, UnitUpdateRequest } from '@bwc/protocol';
import { Button, Form, Input, InputNumber, Modal, Space } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { validateWith, zodRules } from '../../../app/forms/zodRules';
import { ROOT_UNIT, UnitPicker } from './UnitPicker';
import { suggestChildCode, type UnitRow } from './unitTree';

/** What the dialog edits: a new unit (optionally under a parent) or an existing one. */
export type UnitEditing = { mode: 'add'; parent?: UnitRow } | { mode: 'edit'; unit: UnitRow } | null;

interface UnitFormDialogProps {
  editing: UnitEditing;
  /** every unit of the caller's scope */
  units: readonly UnitRow[];
  flat: readonly UnitRow[];
  /** administrators may create root units */
  isAdmin: boolean;
  onClose: () => void;
  onSaved: () => void;
}

const EditForm = UnitUpdateRequest.omit({ id: true });
const addRules = zodRules(UnitAddRequest);
const editRules = zodRules(EditForm);

/** Add a unit (parent, code, name, sort) or rename / re-code / re-sort one. */
export function UnitFormDialog({ editing, units, flat, isAdmin, onClose, onSaved }: UnitFormDialogProps) {
  const { t } = useTranslation('configcenter');
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  // while the dialog closes it keeps showing what it showed
  const last = useRef(editing);
  if (editing !== null) last.current = editing;
  const adding = last.current?.mode === 'add';
  const rules = adding ? addRules : editRules;
  const pid = Form.useWatch('pid', form) as number | undefined;

  // the form starts over only when the dialog opens for another unit, not when the unit list reloads
  const defaults = useRef({ isAdmin, firstUnit: flat[0] });
  defaults.current = { isAdmin, firstUnit: flat[0] };
  useEffect(() => {
    if (!editing) return;
    form.resetFields();
    if (editing.mode === 'edit')
      form.setFieldsValue({ name: editing.unit.name, bh: editing.unit.bh, sort: editing.unit.sort });
    else {
      const { isAdmin: admin, firstUnit } = defaults.current;
      const parent = editing.parent ?? (admin ? undefined : firstUnit);
      form.setFieldsValue({ pid: parent?.id ?? (admin ? ROOT_UNIT : undefined), sort: 0 });
    }
  }, [editing, form]);

  const suggestion = useMemo(() => {
    if (!adding || pid === undefined) return null;
    const parent = flat.find((u) => u.id === pid);
    return parent
      ? suggestChildCode(
          parent.bh,
          flat.map((u) => u.bh),
        )
      : null;
  }, [adding, pid, flat]);

  const submit = async () => {
    if (!editing) return;
    // validate first: the dialog is busy only while the server works
    const request =
      editing.mode === 'add'
        ? { api: 'unitAdd' as const, body: await validateWith(form, UnitAddRequest) }
        : { api: 'unitUpdate' as const, body: { id: editing.unit.id, ...(await validateWith(form, EditForm)) } };
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
      title={t(adding ? 'units.form.addTitle' : 'units.form.editTitle')}
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
      okText={t('action.save')}
      confirmLoading={saving}
      destroyOnHidden
      forceRender
    >
      <Form form={form} layout="vertical" disabled={saving} name="unit-form">
        {adding && (
          <Form.Item name="pid" label={t('units.form.parent')} rules={rules('pid')} required>
            <UnitPicker units={units} withRoot={isAdmin} />
          </Form.Item>
        )}
        <Form.Item name="name" label={t('units.form.name')} rules={rules('name')} required>
          <Input count={{ show: true, max: UNIT_NAME_MAX }} />
        </Form.Item>
        <Form.Item
          label={t('units.form.code')}
          required
          extra={t(pid === ROOT_UNIT && adding ? 'units.form.codeHelpRoot' : 'units.form.codeHelp', {
            n: UNIT_CODE_LENGTH,
          })}
        >
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item name="bh" rules={rules('bh')} noStyle>
              <Input maxLength={UNIT_CODE_LENGTH} inputMode="numeric" aria-label={t('units.form.code')} />
            </Form.Item>
            {suggestion && (
              <Button onClick={() => form.setFieldsValue({ bh: suggestion })} data-testid="unit-code-suggest">
                {t('units.form.suggest', { code: suggestion })}
              </Button>
            )}
          </Space.Compact>
        </Form.Item>
        <Form.Item name="sort" label={t('units.form.sort')} rules={rules('sort')} extra={t('units.form.sortHelp')}>
          <InputNumber min={0} max={99999} precision={0} style={{ width: 160 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
