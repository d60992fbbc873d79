import { Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FilterValue } from '../../components/search-bar';
import { useAccountSearch } from '../configcenter/accounts/useAccountSearch';

/** Officer filter: accounts found by name or username (needs view on the account screen). */
export function OfficerSelect({ value, onChange }: { value: FilterValue | undefined; onChange: (v: FilterValue | undefined) => void }) {
  const { t } = useTranslation('data');
  const [keyword, setKeyword] = useState('');
  const accounts = useAccountSearch(keyword);
  const current = Array.isArray(value) ? value[0] : value;
  return (
    <Select
      allowClear
      showSearch
      filterOption={false}
      style={{ width: 150 }}
      placeholder={t('filter.any')}
      aria-label={t('filter.officer')}
      value={current || undefined}
      loading={accounts.isFetching}
      onSearch={setKeyword}
      onChange={(next?: string) => onChange(next ?? undefined)}
      options={accounts.found.map((a) => ({ value: String(a.id), label: a.label }))}
      notFoundContent={accounts.isError ? t('filter.officerFailed') : undefined}
    />
  );
}
