import {
  EVIDENCE_CATEGORY_MAX,
  EVIDENCE_DESCRIPTION_MAX,
  EVIDENCE_INCIDENT_NO_MAX,
  EVIDENCE_REASON_MAX,
  EVIDENCE_TITLE_MAX,
  MediaDeleteRequest,
  MediaEditAllRequest,
  MediaReviseRequest,
  type MediaItem,
} from '@bwc/protocol';
import { Form, Input, Modal, Radio, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { zodRules } from '../../app/forms/zodRules';

type Values = Record<string, string | number | undefined>;

interface ShellProps<V> {
  open: boolean;
  title: ReactNode;
  okText: ReactNode;
  danger?: boolean;
  /**
   * sends the form's values; the dialog closes when it resolves (unless it resolves `true`: it stays
   * open, e.g. to show a result), and stays open with what was typed when it fails (error toasted)
   */
  onSubmit: (values: V) => Promise<unknown>;
  onClose: () => void;
  initial?: V;
  testId: string;
  children: ReactNode;
}

/**
 * A small form dialog: validates, stays busy while the server works, closes on success. Also used
 * by the access screens (features/access).
 */
export function ShellDialog<V extends object = Values>({
  open,
  title,
  okText,
  danger,
  onSubmit,
  onClose,
  initial,
  testId,
  children,
}: ShellProps<V>) {
  const [form] = Form.useForm<V>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) {
      form.resetFields();
      if (initial) form.setFieldsValue(initial as Parameters<typeof form.setFieldsValue>[0]);
    }
  }, [open, initial, form]);

  const submit = async () => {
    let values: V;
    try {
      values = await form.validateFields();
    } catch {
      return; // the messages show under the fields
    }
    setBusy(true);
    try {
      if ((await onSubmit(values)) !== true) onClose();
    } catch {
      // the http layer has shown the server's message; the dialog keeps what was typed
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      okText={okText}
      okButtonProps={{ danger, 'data-testid': `${testId}-ok` }}
      onOk={() => void submit()}
      confirmLoading={busy}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <div data-testid={testId}>
        <Form form={form} layout="vertical" disabled={busy}>
          {children}
        </Form>
      </div>
    </Modal>
  );
}

function ReasonField({ rules }: { rules: ReturnType<ReturnType<typeof zodRules>> }) {
  const { t } = useTranslation('data');
  return (
    <Form.Item name="reason" label={t('field.reason')} rules={rules} required>
      <Input.TextArea maxLength={EVIDENCE_REASON_MAX} showCount autoSize={{ minRows: 2, maxRows: 4 }} data-testid="reason" />
    </Form.Item>
  );
}

/** Revise title, description, category, incident number with a reason (the original file is untouched). */
export function ReviseDialog({ item, onClose, onSaved }: { item: MediaItem | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation('data');
  const rules = useMemo(() => zodRules(MediaReviseRequest), []);
  const initial = useMemo<Values | undefined>(
    () =>
      item
        ? { title: item.title, description: item.description, category: item.category, incident_no: item.incident_no }
        : undefined,
    [item],
  );
  return (
    <ShellDialog
      open={item !== null}
      title={t('revise.title', { name: item?.title ?? '' })}
      okText={t('revise.ok')}
      initial={initial}
      testId="media-revise"
      onClose={onClose}
      onSubmit={async (values) => {
        if (!item) return;
        // only what changed goes out (the server keeps the values before and after)
        const changed: Record<string, string> = {};
        for (const field of ['title', 'description', 'category', 'incident_no'] as const) {
          const next = String(values[field] ?? '').trim();
          if (next !== item[field]) changed[field] = next;
        }
        await call('mediaRevise', { id: item.id, ...changed, reason: String(values.reason ?? '') }, { success: true });
        onSaved();
      }}
    >
      <Form.Item name="title" label={t('field.title')} rules={rules('title')} required>
        <Input maxLength={EVIDENCE_TITLE_MAX} />
      </Form.Item>
      <Form.Item name="category" label={t('field.category')} rules={rules('category')}>
        <Input maxLength={EVIDENCE_CATEGORY_MAX} />
      </Form.Item>
      <Form.Item name="incident_no" label={t('field.incidentNo')} rules={rules('incident_no')}>
        <Input maxLength={EVIDENCE_INCIDENT_NO_MAX} />
      </Form.Item>
      <Form.Item name="description" label={t('field.description')} rules={rules('description')}>
        <Input.TextArea maxLength={EVIDENCE_DESCRIPTION_MAX} autoSize={{ minRows: 2, maxRows: 5 }} />
      </Form.Item>
      <ReasonField rules={rules('reason')} />
    </ShellDialog>
  );
}

/** Mark or unmark one item, with a note. */
export function FlagDialog({ item, onClose, onSaved }: { item: MediaItem | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation('data');
  const initial = useMemo<Values | undefined>(
    () => (item ? { flg: item.flg ? 0 : 1, flg_note: item.flg_note } : undefined),
    [item],
  );
  return (
    <ShellDialog
      open={item !== null}
      title={t('flag.title', { name: item?.title ?? '' })}
      okText={t('flag.ok')}
      initial={initial}
      testId="media-flag"
      onClose={onClose}
      onSubmit={async (values) => {
        if (!item) return;
        await call(
          'mediaFlag',
          { id: item.id, flg: Number(values.flg) as 0 | 1, flg_note: String(values.flg_note ?? '') },
          { success: true },
        );
        onSaved();
      }}
    >
      <Form.Item name="flg" label={t('flag.state')}>
        <Radio.Group
          options={[
            { value: 1, label: t('flag.marked') },
            { value: 0, label: t('flag.unmarked') },
          ]}
        />
      </Form.Item>
      <Form.Item name="flg_note" label={t('flag.note')}>
        <Input.TextArea maxLength={EVIDENCE_REASON_MAX} showCount autoSize={{ minRows: 2, maxRows: 4 }} />
      </Form.Item>
    </ShellDialog>
  );
}

/** What a bulk answer says: how many changed, and the refusals (shown as a warning by the caller). */
export interface BulkResult {
  changed: number;
  refused: { id: number; reason: string }[];
}

/** Soft delete of one or many items with a reason: they go to /data/edit/deleted. */
export function DeleteDialog({
  ids,
  onClose,
  onDone,
}: {
  ids: number[] | null;
  onClose: () => void;
  onDone: (result: BulkResult) => void;
}) {
  const { t } = useTranslation('data');
  const rules = useMemo(() => zodRules(MediaDeleteRequest), []);
  return (
    <ShellDialog
      open={ids !== null}
      title={t('delete.title')}
      okText={t('delete.ok')}
      danger
      testId="media-delete"
      onClose={onClose}
      onSubmit={async (values) => {
        if (!ids) return;
        onDone(await call('mediaDelete', { ids, reason: String(values.reason ?? '') }));
      }}
    >
      <Typography.Paragraph>{t('delete.question', { count: ids?.length ?? 0 })}</Typography.Paragraph>
      <ReasonField rules={rules('reason')} />
    </ShellDialog>
  );
}

/** The same category and / or incident number on many items, with a reason. */
export function BulkEditDialog({
  ids,
  onClose,
  onDone,
}: {
  ids: number[] | null;
  onClose: () => void;
  onDone: (result: BulkResult) => void;
}) {
  const { t } = useTranslation('data');
  const rules = useMemo(() => zodRules(MediaEditAllRequest), []);
  // what the checked items share (edit_all_get): a common value is filled in, differing ones say so
  const shared = useQuery({
    queryKey: ['evidence', 'edit-all', ids],
    queryFn: () => call('mediaEditAllGet', { ids: ids! }),
    enabled: ids !== null && ids.length > 0,
  });
  const initial = useMemo<Values | undefined>(
    () =>
      shared.data ? { category: shared.data.category ?? '', incident_no: shared.data.incident_no ?? '' } : undefined,
    [shared.data],
  );
  const mixed = (field: 'category' | 'incident_no') =>
    shared.data && shared.data[field] === null ? t('bulkEdit.mixed') : undefined;
  return (
    <ShellDialog
      open={ids !== null}
      initial={initial}
      title={t('bulkEdit.title', { count: ids?.length ?? 0 })}
      okText={t('bulkEdit.ok')}
      testId="media-bulk-edit"
      onClose={onClose}
      onSubmit={async (values) => {
        if (!ids) return;
        const category = String(values.category ?? '').trim();
        const incident = String(values.incident_no ?? '').trim();
        onDone(
          await call('mediaEditAll', {
            ids,
            ...(category ? { category } : {}),
            ...(incident ? { incident_no: incident } : {}),
            reason: String(values.reason ?? ''),
          }),
        );
      }}
    >
      <Typography.Paragraph type="secondary">{t('bulkEdit.hint')}</Typography.Paragraph>
      <Form.Item name="category" label={t('field.category')} rules={rules('category')}>
        <Input maxLength={EVIDENCE_CATEGORY_MAX} placeholder={mixed('category')} />
      </Form.Item>
      <Form.Item name="incident_no" label={t('field.incidentNo')} rules={rules('incident_no')}>
        <Input maxLength={EVIDENCE_INCIDENT_NO_MAX} placeholder={mixed('incident_no')} />
      </Form.Item>
      <ReasonField rules={rules('reason')} />
    </ShellDialog>
  );
}
