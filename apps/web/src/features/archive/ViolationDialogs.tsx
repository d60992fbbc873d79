import {
  CASE_NO_MAX,
  CASE_PLACE_MAX,
  CASE_TEXT_MAX,
  CASE_TITLE_MAX,
  SAMPLE_SUMMARY_MAX,
  SampleAddRequest,
  VIOLATION_TYPES,
  ViolationAddRequest,
  type CaseRecord,
} from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { DatePicker, Form, Input, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { FormDialog, useFormDialog, type FormDialogTargetProps } from '../../components/form-dialog';
import { VIOLATION_TYPE_LABELS } from './archiveKeys';

const DATE_TIME = 'YYYY-MM-DD HH:mm:ss';

const dateTimeProps = {
  getValueProps: (value: unknown) => ({ value: typeof value === 'string' && value ? dayjs(value) : null }),
  normalize: (value: Dayjs | null) => (value ? value.format(DATE_TIME) : ''),
};

/** Officers of the caller's units, searched on the server by name or username. */
export function OfficerPicker({
  value,
  onChange,
  width,
  allowClear,
  placeholder,
}: {
  value?: number;
  onChange?: (value: number | undefined) => void;
  width?: number;
  allowClear?: boolean;
  placeholder?: string;
}) {
  const { t } = useTranslation('archive');
  const [keyword, setKeyword] = useState('');
  const officers = useQuery({
    queryKey: ['archive', 'officers', keyword],
    queryFn: ({ signal }) => call('violationOfficers', { keyword }, { signal, silent: true }),
    staleTime: 60_000,
  });
  return (
    <Select
      showSearch
      allowClear={allowClear}
      filterOption={false}
      style={{ width: width ?? '100%' }}
      aria-label={t('form.officer')}
      placeholder={placeholder}
      value={value}
      loading={officers.isFetching}
      onSearch={setKeyword}
      onChange={(next?: number) => onChange?.(next)}
      options={(officers.data ?? []).map((o) => ({
        value: o.id,
        label: `${o.name || o.username} (${o.username}, ${o.unit_name})`,
      }))}
    />
  );
}

/** Register a violation record: the officer, the kind of breach, when, what happened. */
export function AddViolationDialog(props: FormDialogTargetProps<CaseRecord>) {
  const { t } = useTranslation('archive');
  const dialog = useFormDialog({
    ...props,
    schema: ViolationAddRequest,
    initial: () => ({ occurred_at: dayjs().format(DATE_TIME), media_ids: [] }),
    create: (values) => call('violationAdd', values, { success: true }),
  });
  return (
    <FormDialog
      dialog={dialog}
      name="violation-add"
      title={t('form.addViolationTitle')}
      okText={t('action.save')}
      width={640}
    >
      <Form.Item
        name="officer_id"
        label={t('form.officer')}
        rules={dialog.rules('officer_id')}
        required
        extra={t('form.officerHelp')}
      >
        <OfficerPicker />
      </Form.Item>
      <Form.Item name="violation_type" label={t('form.violationType')} rules={dialog.rules('violation_type')} required>
        <Select
          aria-label={t('form.violationType')}
          options={VIOLATION_TYPES.map((v) => ({ value: v, label: t(VIOLATION_TYPE_LABELS[v]) }))}
        />
      </Form.Item>
      <Form.Item name="title" label={t('form.title')} rules={dialog.rules('title')} required>
        <Input maxLength={CASE_TITLE_MAX} />
      </Form.Item>
      <Form.Item
        name="occurred_at"
        label={t('form.occurredAt')}
        rules={dialog.rules('occurred_at')}
        required
        {...dateTimeProps}
      >
        <DatePicker showTime format={DATE_TIME} style={{ width: 240 }} />
      </Form.Item>
      <Form.Item name="place" label={t('form.place')} rules={dialog.rules('place')}>
        <Input maxLength={CASE_PLACE_MAX} />
      </Form.Item>
      <Form.Item name="content" label={t('form.description')} rules={dialog.rules('content')} required>
        <Input.TextArea rows={3} maxLength={CASE_TEXT_MAX} />
      </Form.Item>
      <Form.Item name="no" label={t('form.no')} rules={dialog.rules('no')} extra={t('form.noHelp')}>
        <Input maxLength={CASE_NO_MAX} />
      </Form.Item>
    </FormDialog>
  );
}

const SampleForm = SampleAddRequest.omit({ id: true });

/** Mark a case as a case sample with its summary. */
export function SampleDialog(props: FormDialogTargetProps<CaseRecord>) {
  const { t } = useTranslation('archive');
  const dialog = useFormDialog({
    ...props,
    schema: SampleForm,
    initial: () => ({ summary: '' }),
    update: (values, row) => call('sampleAdd', { id: row.id, ...values }, { success: true }),
  });
  return (
    <FormDialog
      dialog={dialog}
      name="sample-add"
      title={t('form.sampleTitle', { no: dialog.row?.no ?? '' })}
      okText={t('action.save')}
    >
      <Form.Item
        name="summary"
        label={t('form.summary')}
        rules={dialog.rules('summary')}
        required
        extra={t('form.summaryHelp')}
      >
        <Input.TextArea rows={4} maxLength={SAMPLE_SUMMARY_MAX} />
      </Form.Item>
    </FormDialog>
  );
}
