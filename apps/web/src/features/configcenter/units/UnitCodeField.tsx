import { UNIT_CODE_LENGTH } from '@bwc/protocol';
import { Button, Form, Input, Space, type FormInstance, type FormRule } from 'antd';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { suggestChildCode, type UnitRow } from './unitTree';

interface UnitCodeFieldProps {
  form: FormInstance;
  label: string;
  extra: ReactNode;
  rules: FormRule[];
  /** the chosen parent: its next free child code is offered */
  parentId: number | undefined;
  flat: readonly UnitRow[];
  required?: boolean;
  placeholder?: string;
}

/** The unit's 12-digit code (`bh`), with a button that fills in the chosen parent's next free child code. */
export function UnitCodeField({
  form,
  label,
  extra,
  rules,
  parentId,
  flat,
  required,
  placeholder,
}: UnitCodeFieldProps) {
  const { t } = useTranslation('configcenter');
  const suggestion = useMemo(() => {
    const parent = parentId === undefined ? undefined : flat.find((u) => u.id === parentId);
    return parent
      ? suggestChildCode(
          parent.bh,
          flat.map((u) => u.bh),
        )
      : null;
  }, [parentId, flat]);
  return (
    <Form.Item label={label} required={required} extra={extra}>
      <Space.Compact style={{ width: '100%' }}>
        <Form.Item name="bh" rules={rules} noStyle>
          <Input maxLength={UNIT_CODE_LENGTH} inputMode="numeric" placeholder={placeholder} aria-label={label} />
        </Form.Item>
        {suggestion && (
          <Button onClick={() => form.setFieldsValue({ bh: suggestion })} data-testid="unit-code-suggest">
            {t('units.form.suggest', { code: suggestion })}
          </Button>
        )}
      </Space.Compact>
    </Form.Item>
  );
}
