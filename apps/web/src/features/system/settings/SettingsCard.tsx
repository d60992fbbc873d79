import { boundsOf, SettingsSchemas, type Settings, type SettingsType } from '@bwc/protocol';
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query';
import type { FormRule } from 'antd';
import { Alert, Button, Card, Form, Result, Skeleton, Space } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { UnshownFormIssues, validateWith, zodRules } from '../../../app/forms/zodRules';
import { usePermission } from '../../../app/session/Permission';
import { translateKey } from '../../../i18n';
import './settings.css';

export type SettingsRules = (field: string) => FormRule[];
type Rules = SettingsRules;

interface SettingsCardProps<V extends object> {
  title: ReactNode;
  description?: ReactNode;
  /** protocol schema of the whole form: client validation with the server's own rules */
  schema: z.ZodType<V>;
  /** menu id whose `edit` action allows saving */
  menuId: number;
  query: Pick<UseQueryResult<V>, 'data' | 'isPending' | 'isError' | 'refetch' | 'dataUpdatedAt'>;
  save: Pick<UseMutationResult<V, Error, V>, 'mutateAsync' | 'isPending'>;
  children: (rules: Rules) => ReactNode;
  /** content under the form, outside it (previews, uploads) */
  extra?: ReactNode;
}

/** Rules of a numeric field: "required" first (an emptied number input), then the schema. */
export function numberRules(rules: Rules, field: string): FormRule[] {
  return [{ required: true, message: translateKey('validation.required') }, ...rules(field)];
}

/** The bounds the protocol schema gives a numeric setting, for its help text (written once, in the schema). */
export function settingBounds<T extends SettingsType>(type: T, field: keyof Settings<T> & string) {
  return boundsOf((SettingsSchemas[type].shape as Record<string, z.ZodType>)[field]!);
}

/** Width of numeric inputs (antd puts the style on the outer wrapper, unit suffix included). */
export const NUMBER_INPUT_STYLE = { width: 200 } as const;

/**
 * One settings form: loads its values, validates on the client with the protocol schema
 * (translated messages), saves, and is read-only without the `edit` action.
 */
export function SettingsCard<V extends object>({
  title,
  description,
  schema,
  menuId,
  query,
  save,
  children,
  extra,
}: SettingsCardProps<V>) {
  const { t } = useTranslation('system');
  const [form] = Form.useForm<V>();
  const canEdit = usePermission(menuId, 'edit');
  const rules = zodRules(schema);
  const { data, dataUpdatedAt } = query;

  useEffect(() => {
    if (data) form.setFieldsValue(data as Parameters<typeof form.setFieldsValue>[0]);
  }, [data, dataUpdatedAt, form]);

  /** a schema failure on a key no field shows (UnshownFormIssues): said above the form, not swallowed */
  const [unshown, setUnshown] = useState<string | null>(null);
  const submit = async () => {
    setUnshown(null);
    let values: V;
    try {
      values = await validateWith(form, schema);
    } catch (error) {
      if (error instanceof UnshownFormIssues) {
        console.error('settings form: schema issues on keys without a field', error.keys, error.issues);
        setUnshown(error.message);
      }
      throw error;
    }
    await save.mutateAsync(values);
  };

  let body: ReactNode;
  if (query.isPending) body = <Skeleton active paragraph={{ rows: 4 }} />;
  else if (!data)
    body = (
      <Result
        status="warning"
        title={t('settings.loadFailed')}
        extra={<Button onClick={() => void query.refetch()}>{t('settings.retry')}</Button>}
      />
    );
  else
    body = (
      <>
        {!canEdit && <Alert type="info" showIcon message={t('settings.readOnly')} style={{ marginBottom: 16 }} />}
        {unshown && (
          <Alert type="error" showIcon message={unshown} style={{ marginBottom: 16 }} data-testid="settings-unshown" />
        )}
        <Form
          form={form}
          className="settings-form"
          layout="horizontal"
          labelCol={{ flex: '180px' }}
          labelWrap
          wrapperCol={{ flex: '1 1 0' }}
          disabled={!canEdit || save.isPending}
          initialValues={data}
          onFinish={() => void submit().catch(() => undefined)}
        >
          {children(rules)}
          <Form.Item label=" " colon={false}>
            <Space>
              <Button type="primary" htmlType="submit" loading={save.isPending} disabled={!canEdit}>
                {t('settings.save')}
              </Button>
              <Button
                onClick={() => form.setFieldsValue(data as Parameters<typeof form.setFieldsValue>[0])}
                disabled={!canEdit}
              >
                {t('settings.reset')}
              </Button>
            </Space>
          </Form.Item>
        </Form>
        {extra}
      </>
    );
  return (
    <Card title={title} className="settings-card">
      {description && <p className="settings-description">{description}</p>}
      {body}
    </Card>
  );
}
