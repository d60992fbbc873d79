import { Form, Modal } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';

export type Values = Record<string, NonNullable<unknown> | undefined>;

/** A small form dialog: validates, stays busy while the server works, closes when `onSubmit` resolves. */
export function FormDialog({
  open,
  title,
  okText,
  danger,
  onSubmit,
  onClose,
  initial,
  testId,
  children,
}: {
  open: boolean;
  title: ReactNode;
  okText: ReactNode;
  danger?: boolean;
  /** resolves true to keep the dialog open (e.g. to show a result) */
  onSubmit: (values: Values) => Promise<boolean | void>;
  onClose: () => void;
  initial?: Values;
  testId: string;
  children: ReactNode;
}) {
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) {
      form.resetFields();
      if (initial) form.setFieldsValue(initial);
    }
  }, [open, initial, form]);

  const submit = async () => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    setBusy(true);
    try {
      if (!(await onSubmit(values))) onClose();
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
