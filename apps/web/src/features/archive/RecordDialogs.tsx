import {
  ARCHIVE_STATES,
  ArchiveEditRequest,
  CaseAddRequest,
  CaseCancelRequest,
  CASE_NO_MAX,
  CASE_PLACE_MAX,
  CASE_REASON_MAX,
  CASE_TEXT_MAX,
  CASE_TITLE_MAX,
  IncidentAddRequest,
  type CaseKind,
  type CaseRecord,
} from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { DatePicker, Form, Input, InputNumber, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { FormDialog, useFormDialog, type FormDialogTargetProps } from '../../components/form-dialog';
import { ARCHIVE_STATE_LABELS } from './archiveKeys';

const DATE_TIME = 'YYYY-MM-DD HH:mm:ss';

/** Form.Item props mapping a `YYYY-MM-DD HH:mm:ss` string to a date-time picker. */
const dateTimeProps = {
  getValueProps: (value: unknown) => ({ value: typeof value === 'string' && value ? dayjs(value) : null }),
  normalize: (value: Dayjs | null) => (value ? value.format(DATE_TIME) : ''),
};

/** Register an incident or a case (a case with the incidents it includes). */
export function AddRecordDialog({ kind, ...props }: FormDialogTargetProps<CaseRecord> & { kind: 'incident' | 'case' }) {
  const { t } = useTranslation('archive');
  const dialog = useFormDialog({
    ...props,
    schema: kind === 'case' ? CaseAddRequest : IncidentAddRequest,
    initial: () => ({ occurred_at: dayjs().format(DATE_TIME), incident_ids: [] }),
    create: (values) => call(kind === 'case' ? 'caseAdd' : 'incidentAdd', values, { success: true }),
  });
  // open incidents of the caller's units that no case includes yet
  const incidents = useQuery({
    queryKey: ['archive', 'incident', 'free'],
    queryFn: ({ signal }) => call('incidentList', { page: 1, limit: 100, state: 'open' }, { signal }),
    enabled: kind === 'case' && dialog.open,
  });
  return (
    <FormDialog
      dialog={dialog}
      name={`${kind}-add`}
      title={t(kind === 'case' ? 'form.addCaseTitle' : 'form.addIncidentTitle')}
      okText={t('action.save')}
      width={640}
    >
      <Form.Item name="no" label={t('form.no')} rules={dialog.rules('no')} extra={t('form.noHelp')}>
        <Input maxLength={CASE_NO_MAX} />
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
      <Form.Item name="reporter" label={t('form.reporter')} rules={dialog.rules('reporter')}>
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item name="reporter_phone" label={t('form.reporterPhone')} rules={dialog.rules('reporter_phone')}>
        <Input maxLength={30} />
      </Form.Item>
      <Form.Item name="content" label={t('form.content')} rules={dialog.rules('content')}>
        <Input.TextArea rows={3} maxLength={CASE_TEXT_MAX} />
      </Form.Item>
      {kind === 'case' && (
        <Form.Item
          name="incident_ids"
          label={t('form.incidents')}
          rules={dialog.rules('incident_ids')}
          extra={t('form.incidentsHelp')}
        >
          <Select
            mode="multiple"
            loading={incidents.isPending}
            optionFilterProp="label"
            options={(incidents.data?.list ?? [])
              .filter((r) => r.case_id === null)
              .map((r) => ({ value: r.id, label: `${r.no} ${r.title}` }))}
          />
        </Form.Item>
      )}
    </FormDialog>
  );
}

const CancelForm = CaseCancelRequest.omit({ id: true });
const CANCEL_API = { incident: 'incidentCancel', case: 'caseCancel', violation: 'violationCancel' } as const;

/** Cancel a record with a reason, or (`close`) close a violation record with the handling result. */
export function CancelDialog({
  kind,
  close = false,
  ...props
}: FormDialogTargetProps<CaseRecord> & { kind: CaseKind; close?: boolean }) {
  const { t } = useTranslation('archive');
  const dialog = useFormDialog({
    ...props,
    schema: CancelForm,
    initial: () => ({ reason: '' }),
    update: (values, row) =>
      call(close ? 'violationClose' : CANCEL_API[kind], { id: row.id, ...values }, { success: true }),
  });
  return (
    <FormDialog
      dialog={dialog}
      name={`${kind}-${close ? 'close' : 'cancel'}`}
      title={t(close ? 'form.closeTitle' : 'form.cancelTitle', { no: dialog.row?.no ?? '' })}
      okText={t(close ? 'action.finish' : 'action.cancel')}
    >
      <Form.Item
        name="reason"
        label={t(close ? 'form.result' : 'form.reason')}
        rules={dialog.rules('reason')}
        required
        extra={t(close ? 'form.closeHelp' : 'form.cancelHelp')}
      >
        <Input.TextArea rows={3} maxLength={CASE_REASON_MAX} />
      </Form.Item>
    </FormDialog>
  );
}

const ArchiveForm = ArchiveEditRequest.omit({ id: true });

/** Edit the archive fields of an incident's or a case's file. */
export function ArchiveDialog(props: FormDialogTargetProps<CaseRecord>) {
  const { t } = useTranslation('archive');
  const dialog = useFormDialog({
    ...props,
    schema: ArchiveForm,
    initial: (row) => ({
      archive_no: row?.archive_no ?? '',
      archive_state: row?.archive_state ?? 'none',
      keep_years: row?.keep_years ?? 0,
      archive_note: row?.archive_note ?? '',
    }),
    update: (values, row) => call('archiveEdit', { id: row.id, ...values }, { success: true }),
  });
  return (
    <FormDialog
      dialog={dialog}
      name="archive-edit"
      title={t('form.archiveTitle', { no: dialog.row?.no ?? '' })}
      okText={t('action.save')}
    >
      <Form.Item name="archive_no" label={t('form.archiveNo')} rules={dialog.rules('archive_no')}>
        <Input maxLength={CASE_NO_MAX} />
      </Form.Item>
      <Form.Item name="archive_state" label={t('form.archiveState')} rules={dialog.rules('archive_state')} required>
        <Select
          options={ARCHIVE_STATES.map((s) => ({ value: s, label: t(ARCHIVE_STATE_LABELS[s]) }))}
          style={{ width: 200 }}
        />
      </Form.Item>
      <Form.Item
        name="keep_years"
        label={t('form.keepYears')}
        rules={dialog.rules('keep_years')}
        extra={t('form.keepYearsHelp')}
      >
        <InputNumber min={0} max={100} style={{ width: 160 }} />
      </Form.Item>
      <Form.Item name="archive_note" label={t('form.archiveNote')} rules={dialog.rules('archive_note')}>
        <Input.TextArea rows={3} maxLength={CASE_TEXT_MAX} />
      </Form.Item>
    </FormDialog>
  );
}
