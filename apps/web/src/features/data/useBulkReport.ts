import { useTranslation } from 'react-i18next';
import { notify } from '../../api/notify';
import { translateKey } from '../../i18n';
import type { BulkResult } from './MediaDialogs';

/** Tells the outcome of a bulk call: how many changed, and each refusal in words. */
export function useBulkReport(): (result: BulkResult) => void {
  const { t } = useTranslation('data');
  return (result) => {
    if (result.refused.length === 0) notify.success(t('bulk.changed', { count: result.changed }));
    else {
      const reasons = [...new Set(result.refused.map((r) => translateKey(r.reason)))].join('; ');
      notify.warning(t('bulk.partly', { changed: result.changed, refused: result.refused.length, reasons }));
    }
  };
}
