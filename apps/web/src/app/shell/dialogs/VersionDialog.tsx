import { RegisterRequest } from '@bwc/protocol';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Descriptions, Divider, Form, Input, Modal, Spin, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { zodRules } from '../../forms/zodRules';
import { sessionKeys } from '../../session/queries';

const rules = zodRules(RegisterRequest);

/** Version and licence (admins): counts used/allowed, mac_code, registration code form. */
export function VersionDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('shell');
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<RegisterRequest>();
  const info = useQuery({
    queryKey: sessionKeys.versionInfo,
    queryFn: ({ signal }) => call('versionInfo', undefined, { signal }),
    enabled: open,
    staleTime: 0,
  });
  const register = useMutation({
    mutationFn: (body: RegisterRequest) => call('register', body, { success: true }),
    onSuccess: () => {
      form.resetFields();
      void queryClient.invalidateQueries({ queryKey: sessionKeys.versionInfo });
    },
  });
  const v = info.data;
  return (
    <Modal open={open} title={t('version.title')} onCancel={onClose} footer={null} width={640} destroyOnHidden>
      {info.isPending || !v ? (
        <div style={{ textAlign: 'center', padding: 24 }}>{info.isPending ? <Spin /> : tc('empty')}</div>
      ) : (
        <>
          <Descriptions column={1} bordered size="small" data-testid="version-info" labelStyle={{ width: 200 }}>
            <Descriptions.Item label={t('version.version')}>{v.version}</Descriptions.Item>
            <Descriptions.Item label={t('version.registered')}>
              {v.registered ? (
                <Tag color="success">{t('version.registeredYes')}</Tag>
              ) : (
                <Tag color="error">{t('version.registeredNo')}</Tag>
              )}
            </Descriptions.Item>
            <Descriptions.Item label={t('version.validDays')}>
              {t('version.validDaysValue', { days: v.valid_days })}
            </Descriptions.Item>
            {v.expires_at ? (
              <Descriptions.Item label={t('version.expiresAt')}>
                {dayjs(v.expires_at).format('YYYY-MM-DD')}
              </Descriptions.Item>
            ) : null}
            <Descriptions.Item label={t('version.workstations')}>
              {v.use_workstation_nums} / {v.workstation_nums}
            </Descriptions.Item>
            <Descriptions.Item label={t('version.devices')}>
              {v.use_device_nums} / {v.device_nums}
            </Descriptions.Item>
            <Descriptions.Item label={t('version.player')}>
              {v.play_versiton === 'GB' ? t('version.playerGb') : t('version.playerDefault')}
            </Descriptions.Item>
            <Descriptions.Item label={t('version.macCode')}>
              <Typography.Text copyable code>
                {v.mac_code}
              </Typography.Text>
            </Descriptions.Item>
          </Descriptions>
          <Divider />
          <Form<RegisterRequest>
            form={form}
            layout="vertical"
            onFinish={(values) => register.mutate({ regist_code: values.regist_code.trim() })}
          >
            <Form.Item name="regist_code" label={t('version.registCode')} rules={rules('regist_code')} required>
              <Input.TextArea rows={3} placeholder={t('version.registCodePlaceholder')} />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={register.isPending}>
              {t('version.submit')}
            </Button>
          </Form>
        </>
      )}
    </Modal>
  );
}
