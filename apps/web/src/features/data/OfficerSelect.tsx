import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import type { FilterValue } from '../../components/search-bar';

/** Officer filter: accounts found by name or username (needs view on the account screen). */
export function OfficerSelect({ value, onChange }: { value: FilterValue | undefined; onChange: (v: FilterValue | undefined) => void }) {
  const { t } = useTranslation('data');
  const [keyword, setKeyword] = useState('');
  const accounts = useQuery({
    queryKey: ['evidence', 'officers', keyword],
    queryFn: ({ signal }) => call('accountList', { page: 1, limit: 50, ...(keyword ? { keyword } : {}) }, { signal, silent: true }),
    staleTime: 60_000,
  });
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
      options={(accounts.data?.list ?? []).map((a) => ({ value: String(a.id), label: `${a.hostname} (${a.username})` }))}
      notFoundContent={accounts.isError ? t('filter.officerFailed') : undefined}
    />
  );
}
