import { UNIT_CODE_LENGTH, UnitCode, UnitMoveRequest, optionalInput } from '@bwc/protocol';
import { Alert, Button, Form, Input, Modal, Space } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { validateWith, zodRules } from '../../../app/forms/zodRules';
import { ROOT_UNIT, UnitPicker } from './UnitPicker';
import { suggestChildCode, type UnitRow } from './unitTree';

interface UnitMoveDialogProps {
  unit: UnitRow | null;
  units: readonly UnitRow[];
  flat: readonly UnitRow[];
  isAdmin: boolean;
  onClose: () => void;
  onSaved: () => void;
}

/** the code is optional here: an empty field keeps the old one */
const MoveForm = UnitMoveRequest.omit({ id: true }).extend({ bh: optionalInput(UnitCode) });
const rules = zodRules(MoveForm);

/**
 * Puts a unit with its subtree under another parent. The unit itself cannot be picked; its own
 * descendants can, and the server refuses such a cycle with its message (shown by the http layer).
 */
export function UnitMoveDialog({ unit, units, flat, isAdmin, onClose, onSaved }: UnitMoveDialogProps) {
  const { t } = useTranslation('configcenter');
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const pid = Form.useWatch('pid', form) as number | undefined;
  // while the dialog closes it keeps its title
  const last = useRef(unit);
  if (unit !== null) last.current = unit;

  useEffect(() => {
    if (!unit) return;
    form.resetFields();
    form.setFieldsValue({ pid: undefined, bh: '' });
  }, [unit, form]);

  const self = useMemo(() => new Set(unit ? [unit.id] : []), [unit]);
  const suggestion = useMemo(() => {
    if (!unit || pid === undefined) return null;
    const parent = flat.find((u) => u.id === pid);
    return parent
      ? suggestChildCode(
          parent.bh,
          flat.map((u) => u.bh),
        )
      : null;
  }, [unit, pid, flat]);

  const submit = async () => {
    if (!unit) return;
    const values = await validateWith(form, MoveForm);
    setSaving(true);
    try {
      await call(
        'unitMove',
        { id: unit.id, pid: values.pid, ...(values.bh ? { bh: values.bh } : {}) },
        { success: true },
      );
      onSaved();
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={unit !== null}
      title={t('units.move.title', { name: last.current?.name ?? '' })}
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
      okText={t('units.move.ok')}
      confirmLoading={saving}
      destroyOnHidden
      forceRender
    >
      <Alert type="info" showIcon message={t('units.move.help')} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" disabled={saving} name="unit-move-form">
        <Form.Item name="pid" label={t('units.move.parent')} rules={rules('pid')} required>
          <UnitPicker units={units} withRoot={isAdmin} disabledIds={self} />
        </Form.Item>
        <Form.Item
          label={t('units.move.code')}
          extra={t('units.move.codeHelp', { n: UNIT_CODE_LENGTH, code: last.current?.bh ?? '' })}
        >
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item name="bh" noStyle rules={rules('bh')}>
              <Input maxLength={UNIT_CODE_LENGTH} placeholder={unit?.bh} aria-label={t('units.move.code')} />
            </Form.Item>
            {suggestion && pid !== ROOT_UNIT && (
              <Button onClick={() => form.setFieldsValue({ bh: suggestion })}>
                {t('units.form.suggest', { code: suggestion })}
              </Button>
            )}
          </Space.Compact>
        </Form.Item>
      </Form>
    </Modal>
  );
}
