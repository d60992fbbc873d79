import { Alert, Form, Modal, Spin, type FormProps } from 'antd';
import type { ReactNode } from 'react';
import type { FormDialog as FormDialogState } from './useFormDialog';
import './form-dialog.css';

export interface FormDialogProps {
  /** from `useFormDialog` */
  dialog: FormDialogState<unknown>;
  title: ReactNode;
  okText: ReactNode;
  /** antd's own "cancel" unless given */
  cancelText?: ReactNode;
  /** the antd form's name: inputs get the ids `<name>_<field>` */
  name?: string;
  width?: number;
  /** no way out while the server works (an upload that is running) */
  lockWhileBusy?: boolean;
  formProps?: Omit<FormProps, 'form' | 'layout' | 'disabled' | 'name' | 'children'>;
  children: ReactNode;
}

/**
 * The create / edit dialog of every entity: a vertical antd form in a modal, disabled while its
 * values load or the server works, the error of the last submit on top when it names no field.
 * The form stays mounted while closed (`forceRender`), so it can be filled before it shows.
 */
export function FormDialog({
  dialog,
  title,
  okText,
  cancelText,
  name,
  width,
  lockWhileBusy = false,
  formProps,
  children,
}: FormDialogProps) {
  const locked = lockWhileBusy && dialog.busy;
  return (
    <Modal
      open={dialog.open}
      title={title}
      onCancel={locked ? undefined : dialog.close}
      onOk={dialog.submit}
      okText={okText}
      cancelText={cancelText}
      confirmLoading={dialog.busy}
      okButtonProps={{ disabled: dialog.loading }}
      cancelButtonProps={{ disabled: locked }}
      closable={!locked}
      maskClosable={!locked}
      width={width}
      destroyOnHidden
      forceRender
    >
      <Spin spinning={dialog.loading}>
        <Form
          {...formProps}
          form={dialog.form}
          layout="vertical"
          disabled={dialog.busy || dialog.loading}
          name={name}
          onValuesChange={(changed: unknown, all: unknown) => {
            dialog.clearError();
            formProps?.onValuesChange?.(changed, all);
          }}
        >
          {dialog.error && (
            <Alert className="bwc-form-dialog-error" type="error" showIcon message={dialog.error} role="alert" />
          )}
          {children}
        </Form>
      </Spin>
    </Modal>
  );
}
