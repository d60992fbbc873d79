import { UNIT_CODE_LENGTH, UNIT_NAME_MAX, UnitAddRequest, UnitUpdateRequest } from '@bwc/protocol';
import { Form, Input, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { FormDialog, useFormDialog, type FormDialogTargetProps } from '../../../components/form-dialog';
import { UnitCodeField } from './UnitCodeField';
import { ROOT_UNIT, UnitPicker } from './UnitPicker';
import type { UnitRow } from './unitTree';

interface UnitFormDialogProps extends FormDialogTargetProps<UnitRow> {
  /** a new unit goes under this one when given */
  parent: UnitRow | undefined;
  /** every unit of the caller's scope */
  units: readonly UnitRow[];
  flat: readonly UnitRow[];
  /** administrators may create root units */
  isAdmin: boolean;
}

const EditForm = UnitUpdateRequest.omit({ id: true });

/** Add a unit (parent, code, name, sort) or rename / re-code / re-sort one. */
export function UnitFormDialog({ parent, units, flat, isAdmin, ...props }: UnitFormDialogProps) {
  const { t } = useTranslation('configcenter');
  const dialog = useFormDialog({
    ...props,
    schema: UnitAddRequest,
    updateSchema: EditForm,
    // read when the dialog opens, not again when the unit list reloads behind it
    initial: (unit) => {
      if (unit) return { name: unit.name, bh: unit.bh, sort: unit.sort };
      const under = parent ?? (isAdmin ? undefined : flat[0]);
      return { pid: under?.id ?? (isAdmin ? ROOT_UNIT : undefined), sort: 0 };
    },
    create: (values) => call('unitAdd', values, { success: true }),
    update: (values, unit) => call('unitUpdate', { id: unit.id, ...values }, { success: true }),
  });
  const pid = Form.useWatch('pid', dialog.form) as number | undefined;
  const adding = dialog.creating;

  return (
    <FormDialog
      dialog={dialog}
      name="unit-form"
      title={t(adding ? 'units.form.addTitle' : 'units.form.editTitle')}
      okText={t('action.save')}
    >
      {adding && (
        <Form.Item name="pid" label={t('units.form.parent')} rules={dialog.rules('pid')} required>
          <UnitPicker units={units} withRoot={isAdmin} />
        </Form.Item>
      )}
      <Form.Item name="name" label={t('units.form.name')} rules={dialog.rules('name')} required>
        <Input count={{ show: true, max: UNIT_NAME_MAX }} />
      </Form.Item>
      <UnitCodeField
        form={dialog.form}
        label={t('units.form.code')}
        extra={t(pid === ROOT_UNIT && adding ? 'units.form.codeHelpRoot' : 'units.form.codeHelp', {
          n: UNIT_CODE_LENGTH,
        })}
        rules={dialog.rules('bh')}
        parentId={adding ? pid : undefined}
        flat={flat}
        required
      />
      <Form.Item name="sort" label={t('units.form.sort')} rules={dialog.rules('sort')} extra={t('units.form.sortHelp')}>
        <InputNumber style={{ width: 160 }} />
      </Form.Item>
    </FormDialog>
  );
}
