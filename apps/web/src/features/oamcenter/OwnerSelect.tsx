import { MenuId } from '@bwc/protocol';
import { Select } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePermission } from '../../app/session/Permission';
import { useAccountSearch } from '../configcenter/accounts/useAccountSearch';

export interface OwnerOption {
  id: number;
  name: string;
}

interface Props {
  /** the account id (Form.Item's value); null or undefined: no owner */
  value?: number | null;
  onChange?: (value: number | null) => void;
  /** the device's owner when the form opened, named before any search answers */
  current?: OwnerOption | null;
  id?: string;
}

/**
 * The officer account a camera belongs to: its recordings are filed under this officer. Accounts
 * are found by name or username on the account list, which needs view on the account screen;
 * without it the owner is shown and kept, not changed.
 */
export function OwnerSelect({ value, onChange, current, id }: Props) {
  const { t } = useTranslation('oamcenter');
  const canSearch = usePermission(MenuId.ACCOUNTS, 'view');
  const [keyword, setKeyword] = useState('');
  const accounts = useAccountSearch(keyword, canSearch);
  const options = useMemo(() => {
    const found = accounts.found.map((a) => ({ value: a.id, label: a.label }));
    if (current && !found.some((o) => o.value === current.id))
      found.unshift({ value: current.id, label: current.name });
    return found;
  }, [accounts.found, current]);
  return (
    <Select<number>
      id={id}
      allowClear
      showSearch
      filterOption={false}
      disabled={!canSearch}
      placeholder={t('recorder.owner.none')}
      value={value ?? undefined}
      loading={accounts.isFetching}
      onSearch={setKeyword}
      onChange={(next?: number) => onChange?.(next ?? null)}
      options={options}
      notFoundContent={accounts.isError ? t('recorder.owner.failed') : undefined}
      data-testid="device-owner"
    />
  );
}
