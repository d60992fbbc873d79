import { UNIT_CODE_LENGTH, UnitCode, UnitMoveRequest, optionalInput } from '@bwc/protocol';
import { Alert, Form } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { FormDialog, useFormDialog, type FormDialogTargetProps } from '../../../components/form-dialog';
import { UnitCodeField } from './UnitCodeField';
import { UnitPicker } from './UnitPicker';
import type { UnitRow } from './unitTree';

interface UnitMoveDialogProps extends FormDialogTargetProps<UnitRow> {
  units: readonly UnitRow[];
  flat: readonly UnitRow[];
  isAdmin: boolean;
}

/** the code is optional here: an empty field keeps the old one */
const MoveForm = UnitMoveRequest.omit({ id: true }).extend({ bh: optionalInput(UnitCode) });

/**
 * Puts a unit with its subtree under another parent. The unit itself cannot be picked; its own
 * descendants can, and the server refuses such a cycle with its message.
 */
export function UnitMoveDialog({ units, flat, isAdmin, ...props }: UnitMoveDialogProps) {
  const { t } = useTranslation('configcenter');
  const dialog = useFormDialog({
    ...props,
    schema: MoveForm,
    initial: () => ({ pid: undefined, bh: '' }),
    update: (values, unit) =>
      call('unitMove', { id: unit.id, pid: values.pid, ...(values.bh ? { bh: values.bh } : {}) }, { success: true }),
  });
  const pid = Form.useWatch('pid', dialog.form) as number | undefined;
  const unit = dialog.row;
  const self = useMemo(() => new Set(unit ? [unit.id] : []), [unit]);

  return (
    <FormDialog
      dialog={dialog}
      name="unit-move-form"
      title={t('units.move.title', { name: unit?.name ?? '' })}
      okText={t('units.move.ok')}
    >
      <Alert type="info" showIcon message={t('units.move.help')} style={{ marginBottom: 16 }} />
      <Form.Item name="pid" label={t('units.move.parent')} rules={dialog.rules('pid')} required>
        <UnitPicker units={units} withRoot={isAdmin} disabledIds={self} />
      </Form.Item>
      <UnitCodeField
        form={dialog.form}
        label={t('units.move.code')}
        extra={t('units.move.codeHelp', { n: UNIT_CODE_LENGTH, code: unit?.bh ?? '' })}
        rules={dialog.rules('bh')}
        parentId={pid}
        flat={flat}
        placeholder={unit?.bh}
      />
    </FormDialog>
  );
}
