import { CHECK_NOTE_MAX, CHECK_SAMPLE_MAX, type CheckBatchDetail } from '@bwc/protocol';
import { DatePicker, Form, Input, InputNumber, Modal, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { UnitTreeSelect, isUnitNode, loadUnitLevel } from '../../components/unit-tree';
import { TYPE_LABELS } from './reviewKeys';

interface Values {
  unit?: string;
  range?: [Dayjs | null, Dayjs | null] | null;
  media_type?: number;
  count?: number;
  note?: string;
}

/** The checkrandom/draw payload of the dialog's values. */
export function drawPayload(v: Values) {
  const [start, end] = v.range ?? [];
  return {
    ...(v.unit && /^\d+$/.test(v.unit) ? { unit_id: Number(v.unit) } : {}),
    ...(start ? { recorded_start: start.toISOString() } : {}),
    ...(end ? { recorded_end: end.toISOString() } : {}),
    ...(v.media_type ? { media_type: v.media_type as 1 | 2 | 3 } : {}),
    count: Number(v.count),
    note: (v.note ?? '').trim(),
  };
}

/**
 * Draw a random check (/data/check/random): N recordings (1..100) of the caller's units matching
 * the unit, recorded-time range and media type; the server stores the batch with its seed.
 */
export function DrawDialog({
  open,
  onClose,
  onDrawn,
}: {
  open: boolean;
  onClose: () => void;
  onDrawn: (detail: CheckBatchDetail) => void;
}) {
  const { t } = useTranslation('review');
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);

  const submit = async () => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setBusy(true);
    try {
      const detail = await call('checkDraw', drawPayload(values), { success: true });
      onDrawn(detail);
      onClose();
    } catch {
      // the http layer has shown the server's message; the dialog keeps the values
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('draw.title')}
      okText={t('draw.ok')}
      okButtonProps={{ 'data-testid': 'draw-ok' }}
      onOk={() => void submit()}
      confirmLoading={busy}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <div data-testid="draw-dialog">
        <Form form={form} layout="vertical" disabled={busy} initialValues={{ count: 10 }}>
          <Form.Item name="unit" label={t('draw.unit')} extra={t('draw.unitHint')}>
            <UnitTreeSelect loader={loadUnitLevel} selectableNode={isUnitNode} placeholder={t('draw.anyUnit')} />
          </Form.Item>
          <Form.Item name="range" label={t('draw.recorded')}>
            <DatePicker.RangePicker showTime style={{ width: '100%' }} allowEmpty={[true, true]} />
          </Form.Item>
          <Form.Item name="media_type" label={t('draw.type')}>
            <Select
              allowClear
              placeholder={t('draw.anyType')}
              options={([1, 2, 3] as const).map((v) => ({ value: v, label: t(TYPE_LABELS[v]!) }))}
            />
          </Form.Item>
          <Form.Item
            name="count"
            label={t('draw.count', { max: CHECK_SAMPLE_MAX })}
            rules={[
              { required: true, message: t('draw.countRange', { max: CHECK_SAMPLE_MAX }) },
              {
                type: 'number',
                min: 1,
                max: CHECK_SAMPLE_MAX,
                message: t('draw.countRange', { max: CHECK_SAMPLE_MAX }),
              },
            ]}
          >
            <InputNumber min={1} max={CHECK_SAMPLE_MAX} precision={0} aria-label={t('draw.countLabel')} />
          </Form.Item>
          <Form.Item name="note" label={t('draw.note')}>
            <Input.TextArea rows={2} maxLength={CHECK_NOTE_MAX} showCount />
          </Form.Item>
        </Form>
      </div>
    </Modal>
  );
}
