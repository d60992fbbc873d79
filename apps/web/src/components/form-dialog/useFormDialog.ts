import { HTTP_STATUS_NOT_ACCEPTABLE, ResultCode } from '@bwc/protocol';
import { Form, type FormInstance, type FormRule } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { z } from 'zod';
import { ApiError } from '../../api/http';
import { UnshownFormIssues, validateWith, zodRules } from '../../app/forms/zodRules';
import { namedFieldError } from './serverError';

/** What a form dialog shows: 'new' to create, a row to edit, null while closed. */
export type DialogTarget<Row> = Row | 'new' | null;

/** What a page hands its form dialog (see `useCrud().dialog`). */
export interface FormDialogTargetProps<Row> {
  target: DialogTarget<Row>;
  onClose: () => void;
  onSaved: () => void;
}

export type FormValues = Record<string, unknown>;

export interface FormDialogOptions<
  Row,
  C extends z.ZodType,
  U extends z.ZodType = C,
> extends FormDialogTargetProps<Row> {
  /** the request schema the form is checked with (its `validation.*` messages, translated) */
  schema: C;
  /** a different schema for editing (e.g. without the fields fixed once created) */
  updateSchema?: U;
  /** the values a new entry starts with */
  defaults?: FormValues;
  /**
   * The form's values when it opens, for a new entry (row null) or for `row`; by default
   * `defaults`, or the row's values of the schema's fields. Called when the target changes only
   * (a list reloading behind the dialog does not reset the form); a promise is waited for with
   * the form disabled, and the dialog closes if it fails (the http layer has said why).
   */
  initial?: (row: Row | null, signal: AbortSignal) => FormValues | Promise<FormValues>;
  /** send a new entry (validated and parsed values); a rejected ApiError is shown in the form */
  create?: (values: z.infer<C>, form: FormInstance) => Promise<unknown>;
  /** send the edited entry */
  update?: (values: z.infer<U>, row: Row, form: FormInstance) => Promise<unknown>;
  /**
   * The form field a refusal concerns when its msg names none (`字段 x：...`), e.g. `username` for
   * the 409 `用户名 x 已存在` of a new account: the whole msg then shows under that field (when the
   * form has it); null (or no function) leaves the msg at the top of the form.
   */
  refusalField?: (failure: ApiError) => string | null;
}

export interface FormDialog<Row> {
  form: FormInstance;
  /** rules of one field: the schema's messages (`rules('name')`) */
  rules: (field: string) => FormRule[];
  open: boolean;
  /** creating (else editing); kept while the dialog closes, like `row` */
  creating: boolean;
  /** the row being edited (null when creating) */
  row: Row | null;
  /** initial values are loading */
  loading: boolean;
  /** the server is working on a submit */
  busy: boolean;
  /** an error of the last submit that names no field of the form (shown at its top) */
  error: string | null;
  submit: () => void;
  close: () => void;
  clearError: () => void;
}

/**
 * State and behaviour of a create / edit dialog (render it with `<FormDialog dialog={...}>`):
 * - opens with `initial(row)` (form reset first), for 'new' or a row;
 * - OK validates with the protocol schema first (messages under the fields; an issue of a key no
 *   field shows, a fault of the dialog, at the top of the form), then sends with `create` /
 *   `update` and is busy only while the server works;
 * - an envelope error stays in the form: under the field it names (`字段 name：...`) or that
 *   `refusalField` gives, else at the
 *   top of the form (the http layer's error toast still shows, spec part 1 section 8); success
 *   calls `onSaved` (the page closes the dialog and reloads its list).
 */
/** The row's values of the schema's fields (an object schema; anything else gives nothing). */
export function valuesOf(schema: z.ZodType, row: object): FormValues {
  const shape = (schema as { shape?: Record<string, unknown> }).shape ?? {};
  const values = row as FormValues;
  return Object.fromEntries(Object.keys(shape).flatMap((key) => (key in values ? [[key, values[key]]] : [])));
}

export function useFormDialog<Row, C extends z.ZodType, U extends z.ZodType = C>(
  options: FormDialogOptions<Row, C, U>,
): FormDialog<Row> {
  const { target, schema, updateSchema } = options;
  const [form] = Form.useForm();
  const [loading, setLoading] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // the page's callbacks may change on every render; opening must not restart because of them
  const latest = useRef(options);
  latest.current = options;
  // while the dialog closes it keeps showing what it showed
  const shown = useRef(target);
  if (target !== null) shown.current = target;
  const creating = shown.current === 'new';
  const row = shown.current === null || shown.current === 'new' ? null : shown.current;

  useEffect(() => {
    if (target === null) return;
    form.resetFields();
    setError(null);
    const controller = new AbortController();
    const { initial, defaults = {}, schema: createSchema, updateSchema: editSchema } = latest.current;
    const row = target === 'new' ? null : target;
    const values = initial
      ? initial(row, controller.signal)
      : row
        ? valuesOf(editSchema ?? createSchema, row as object)
        : defaults;
    if (values instanceof Promise) {
      setLoading(true);
      values
        .then((loaded) => {
          if (!controller.signal.aborted) form.setFieldsValue(loaded);
        })
        .catch(() => {
          if (!controller.signal.aborted) latest.current.onClose();
        })
        .finally(() => {
          if (!controller.signal.aborted) setLoading(false);
        });
    } else form.setFieldsValue(values);
    return () => {
      controller.abort();
      setLoading(false);
    };
  }, [target, form]);

  const createRules = useMemo(() => zodRules(schema), [schema]);
  const updateRules = useMemo(() => (updateSchema ? zodRules(updateSchema) : createRules), [updateSchema, createRules]);

  const showError = useCallback(
    (failure: unknown) => {
      if (!(failure instanceof ApiError)) {
        console.error('form dialog: submit failed', failure);
        return;
      }
      // the console is leaving for Login or /406
      if (failure.code === ResultCode.UNAUTHENTICATED || failure.status === HTTP_STATUS_NOT_ACCEPTABLE) return;
      const field = latest.current.refusalField?.(failure);
      const named = namedFieldError(failure.msg) ?? (field ? { field, message: failure.msg } : null);
      const inForm = named && form.getFieldsError().some((f) => f.name.join('.') === named.field);
      if (named && inForm) form.setFields([{ name: named.field.split('.'), errors: [named.message] }]);
      else setError(failure.msg);
    },
    [form],
  );

  const submit = useCallback(async () => {
    const current = latest.current;
    if (current.target === null) return;
    const editing = current.target === 'new' ? null : current.target;
    let values: unknown;
    try {
      // validate first: the dialog is busy only while the server works
      values = await validateWith(form, editing ? (current.updateSchema ?? current.schema) : current.schema);
    } catch (failure) {
      // the fields passed, the schema did not: say so at the top rather than nothing at all
      if (failure instanceof UnshownFormIssues) {
        console.error('form dialog: the schema fails on keys no field shows', failure.keys, failure.issues);
        setError(failure.message);
      }
      return; // else the messages stand under the fields
    }
    setError(null);
    setBusy(true);
    try {
      if (editing) await current.update?.(values as z.infer<U>, editing, form);
      else await current.create?.(values as z.infer<C>, form);
      current.onSaved();
    } catch (failure) {
      showError(failure);
    } finally {
      setBusy(false);
    }
  }, [form, showError]);

  return {
    form,
    rules: creating ? createRules : updateRules,
    open: target !== null,
    creating,
    row,
    loading,
    busy,
    error,
    submit: () => void submit(),
    close: () => latest.current.onClose(),
    clearError: () => setError(null),
  };
}
