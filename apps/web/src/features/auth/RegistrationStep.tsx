import { RegisterRequest } from '@bwc/protocol';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { zodRules } from '../../app/forms/zodRules';

const rules = zodRules(RegisterRequest);

/** Registration step of an unregistered installation: shows mac_code, submits regist_code. */
export function RegistrationStep({ onRegistered }: { onRegistered: () => void }) {
  const { t } = useTranslation('login');
  const [form] = Form.useForm<RegisterRequest>();
  const status = useQuery({
    queryKey: ['registration'],
    queryFn: ({ signal }) => call('registration', undefined, { signal }),
  });
  const register = useMutation({
    mutationFn: (values: RegisterRequest) => call('register', values, { success: t('register.done') }),
    onSuccess: onRegistered,
  });
  return (
    <div data-testid="registration-step">
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {t('register.title')}
      </Typography.Title>
      <Alert type="warning" showIcon message={t('register.description')} style={{ marginBottom: 16 }} />
      <Form<RegisterRequest>
        form={form}
        layout="vertical"
        onFinish={(values) => register.mutate({ regist_code: values.regist_code.trim() })}
      >
        <Form.Item label={t('register.macCode')}>
          <Typography.Text copyable code data-testid="mac-code">
            {status.data?.mac_code ?? ''}
          </Typography.Text>
        </Form.Item>
        <Form.Item name="regist_code" label={t('register.registCode')} rules={rules('regist_code')} required>
          <Input.TextArea rows={4} placeholder={t('register.registCodePlaceholder')} />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={register.isPending}>
          {t('register.submit')}
        </Button>
      </Form>
    </div>
  );
}
