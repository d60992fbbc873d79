import { ACK_TYPES, AckType, type Alarm } from '@bwc/protocol';
import { Form, Input, Modal, Radio, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ACK_LABELS } from './ackType';

/** Longest note the server accepts (AlarmSureRequest.note). */
export const SURE_NOTE_MAX = 200;

/** What is acknowledged: one alarm, or every open alarm the user can see. */
export type SureTarget = { kind: 'one'; alarm: Alarm } | { kind: 'all' };

interface Props {
  target: SureTarget | null;
  /** acknowledges with the note and outcome; the dialog stays busy until it settles and closes on success */
  onSubmit: (target: SureTarget, note: string, ackType: AckType) => Promise<unknown>;
  onClose: () => void;
}

/**
 * Acknowledge one alarm or all of them: the outcome (handled, false alarm, transferred) and an
 * optional note; the handler is the signed-in user.
 */
export function SureDialog({ target, onSubmit, onClose }: Props) {
  const { t } = useTranslation('alarm');
  const [note, setNote] = useState('');
  const [ackType, setAckType] = useState<AckType>(AckType.HANDLED);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (target) {
      setNote('');
      setAckType(AckType.HANDLED);
    }
  }, [target]);

  const submit = async () => {
    if (!target) return;
    setBusy(true);
    try {
      await onSubmit(target, note.trim(), ackType);
      onClose();
    } catch {
      // the http layer has shown the error; the dialog stays open with the note
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={target !== null}
      title={target?.kind === 'all' ? t('sure.allTitle') : t('sure.oneTitle')}
      okText={t('sure.ok')}
      onOk={() => void submit()}
      confirmLoading={busy}
      onCancel={onClose}
      destroyOnHidden
    >
      <div data-testid="alarm-sure-dialog">
        <Typography.Paragraph>
          {target?.kind === 'all'
            ? t('sure.allQuestion')
            : target && t('sure.oneQuestion', { name: target.alarm.hostNameCode, type: target.alarm.typeName_cur })}
        </Typography.Paragraph>
        <Form layout="vertical">
          <Form.Item label={t('sure.ackType')}>
            <Radio.Group
              value={ackType}
              onChange={(event) => setAckType(event.target.value as AckType)}
              data-testid="alarm-sure-ack-type"
              options={ACK_TYPES.map((type) => ({ value: type, label: t(ACK_LABELS[type]) }))}
            />
          </Form.Item>
          <Form.Item label={t('sure.note')}>
            <Input.TextArea
              value={note}
              onChange={(event) => setNote(event.target.value)}
              maxLength={SURE_NOTE_MAX}
              showCount
              autoSize={{ minRows: 3, maxRows: 6 }}
              placeholder={t('sure.notePlaceholder')}
              data-testid="alarm-sure-note"
            />
          </Form.Item>
        </Form>
      </div>
    </Modal>
  );
}
