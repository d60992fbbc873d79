import { LocalSaveForm, RECORDING_DURATIONS_MIN, SPLIT_SCREEN_CHOICES } from '@bwc/protocol';
import { Alert, Form, Input, Modal, Select, Switch } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySaved } from '../../../api/http';
import { UnshownFormIssues, validateWith, zodRules } from '../../forms/zodRules';
import { readLocalSave, writeLocalSave } from '../localSave';

const rules = zodRules(LocalSaveForm);

/** Local save settings: defaults screen 1 and auto save on, kept in browser storage. */
export function LocalSaveDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('shell');
  const { t: tc } = useTranslation();
  const [form] = Form.useForm<LocalSaveForm>();
  /** a schema failure on a key no field shows (UnshownFormIssues): said above the form, not swallowed */
  const [unshown, setUnshown] = useState<string | null>(null);
  const save = async () => {
    setUnshown(null);
    const values = await validateWith(form, LocalSaveForm).catch((error: unknown) => {
      if (error instanceof UnshownFormIssues) {
        console.error('local save form: schema issues on keys without a field', error.keys, error.issues);
        setUnshown(error.message);
      }
      throw error;
    });
    writeLocalSave({ ...readLocalSave(), ...values });
    notifySaved();
    onClose();
  };
  return (
    <Modal
      open={open}
      title={t('localSave.title')}
      okText={tc('action.save')}
      cancelText={tc('action.cancel')}
      onOk={() => void save().catch(() => undefined)}
      onCancel={onClose}
      destroyOnHidden
      afterOpenChange={(visible) => visible && form.setFieldsValue(readLocalSave())}
    >
      {unshown && <Alert type="error" showIcon message={unshown} style={{ marginBottom: 16 }} />}
      <Form<LocalSaveForm>
        form={form}
        layout="horizontal"
        labelCol={{ span: 7 }}
        initialValues={readLocalSave()}
        preserve={false}
      >
        <Form.Item name="videoPath" label={t('localSave.videoPath')} rules={rules('videoPath')}>
          <Input placeholder={t('localSave.pathPlaceholder')} maxLength={255} />
        </Form.Item>
        <Form.Item name="shootPath" label={t('localSave.shootPath')} rules={rules('shootPath')}>
          <Input placeholder={t('localSave.pathPlaceholder')} maxLength={255} />
        </Form.Item>
        <Form.Item name="time" label={t('localSave.time')} rules={rules('time')}>
          <Select
            options={RECORDING_DURATIONS_MIN.map((m) => ({ value: m, label: t('localSave.minutes', { count: m }) }))}
          />
        </Form.Item>
        <Form.Item name="LocalIp" label={t('localSave.LocalIp')} rules={rules('LocalIp')}>
          <Input placeholder="192.168.1.10" maxLength={15} />
        </Form.Item>
        <Form.Item name="screen" label={t('localSave.screen')} rules={rules('screen')}>
          <Select
            options={SPLIT_SCREEN_CHOICES.map((n) => ({ value: n, label: t('localSave.screens', { count: n }) }))}
          />
        </Form.Item>
        <Form.Item name="autoSave" label={t('localSave.autoSave')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </Form>
    </Modal>
  );
}
