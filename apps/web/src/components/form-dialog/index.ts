export { FormDialog, type FormDialogProps } from './FormDialog';
export {
  useFormDialog,
  type DialogTarget,
  type FormDialog as FormDialogState,
  type FormDialogOptions,
  type FormDialogTargetProps,
  type FormValues,
  valuesOf,
} from './useFormDialog';
export { namedFieldError, type NamedFieldError } from './serverError';
