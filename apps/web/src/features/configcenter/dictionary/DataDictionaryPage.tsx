import { MenuId, type DictEntry, type DictType } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { Badge, Card, Empty, Menu, Skeleton, Tag } from 'antd';
import dayjs from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { call } from '../../../api/http';
import { CrudTable, QueryError, useCrud } from '../../../components/crud';
import type { DataTableColumn } from '../../../components/data-table';
import type { FilterValues, SearchItem } from '../../../components/search-bar';
import { configKeys } from '../configcenter.api';
import { DictEntryDialog } from './DictEntryDialog';
import './dictionary.css';

/** Label of a type or an entry in the console's language (English falls back to Chinese when empty). */
export function localized(zh: string, en: string, language: string): string {
  return language.startsWith('en') && en ? en : zh;
}

function matches(row: DictEntry, filters: FilterValues): boolean {
  const keyword = typeof filters.keyword === 'string' ? filters.keyword.trim().toLowerCase() : '';
  if (keyword && ![row.key, row.label, row.label_en].some((f) => f.toLowerCase().includes(keyword))) return false;
  if (filters.enabled !== undefined && String(row.enabled) !== filters.enabled) return false;
  return true;
}

/** /configcenter/DataDictionary: dictionary types on the left, the chosen type's entries on the right. */
export function DataDictionaryPage() {
  const { t, i18n } = useTranslation('configcenter');
  const [params, setParams] = useSearchParams();
  const { dialog, reload, addButton, editAction, deleteAction, permission } = useCrud<DictEntry>({
    menu: MenuId.DATA_DICTIONARY,
    invalidate: [configKeys.dict, configKeys.dictTypes],
  });

  const types = useQuery({
    queryKey: configKeys.dictTypes,
    queryFn: ({ signal }) => call('dictTypes', undefined, { signal }),
  });
  const code = params.get('type') ?? types.data?.[0]?.code ?? null;
  const type: DictType | null = types.data?.find((item) => item.code === code) ?? null;
  const entries = useQuery({
    queryKey: [...configKeys.dict, code],
    queryFn: ({ signal }) => call('dictList', { type: code! }, { signal }),
    enabled: code !== null,
  });

  const searchItems = useMemo<SearchItem[]>(
    () => [
      {
        type: 'text',
        name: 'keyword',
        label: t('dict.filter.keyword'),
        placeholder: t('dict.filter.keywordPlaceholder'),
      },
      {
        type: 'select',
        name: 'enabled',
        label: t('dict.filter.enabled'),
        options: [
          { value: 1, label: t('dict.state.enabled') },
          { value: 0, label: t('dict.state.disabled') },
        ],
        width: 110,
      },
      addButton(t('dict.action.add')),
    ],
    [t, addButton],
  );

  const columns = useMemo<DataTableColumn<DictEntry>[]>(
    () => [
      { title: t('dict.column.key'), dataIndex: 'key', key: 'key', width: 90 },
      { title: t('dict.column.label'), dataIndex: 'label', key: 'label', width: 150 },
      { title: t('dict.column.labelEn'), dataIndex: 'label_en', key: 'label_en' },
      { title: t('dict.column.sort'), dataIndex: 'sort', key: 'sort', width: 70, align: 'center' },
      {
        title: t('dict.column.builtin'),
        dataIndex: 'builtin',
        key: 'builtin',
        width: 84,
        align: 'center',
        render: (builtin: number) => (builtin === 1 ? <Tag color="blue">{t('dict.builtin')}</Tag> : null),
      },
      {
        kind: 'switch',
        key: 'enabled',
        title: t('dict.column.enabled'),
        width: 80,
        isOn: (row) => row.enabled === 1,
        onToggle: (row, on) =>
          call(
            'dictUpdate',
            { id: row.id, label: row.label, label_en: row.label_en, sort: row.sort, enabled: on ? 1 : 0 },
            { success: true },
          ).then(reload),
        permission: permission('edit'),
      },
      {
        title: t('dict.column.updated'),
        dataIndex: 'updated',
        key: 'updated',
        width: 104,
        // the day here, the full time on hover
        render: (value: string) =>
          value ? (
            <span title={dayjs(value).format('YYYY-MM-DD HH:mm:ss')}>{dayjs(value).format('YYYY-MM-DD')}</span>
          ) : (
            ''
          ),
      },
      {
        kind: 'operation',
        width: 110,
        actions: [
          editAction(t('dict.action.edit')),
          deleteAction({
            label: t('dict.action.delete'),
            confirm: t('dict.confirm.delete'),
            remove: (row) => call('dictDelete', { id: row.id }, { success: true }),
            hidden: (row) => row.builtin === 1,
          }),
        ],
      },
    ],
    [t, reload, permission, editAction, deleteAction],
  );

  if (types.isError && !types.data)
    return (
      <Card title={t('dict.title')}>
        <QueryError error={types.error} onRetry={() => void types.refetch()} />
      </Card>
    );

  return (
    <Card title={t('dict.title')}>
      <div className="bwc-dict">
        <div className="bwc-dict-types">
          <div className="bwc-dict-types-title">{t('dict.types')}</div>
          {types.isPending ? (
            <Skeleton active />
          ) : (types.data ?? []).length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dict.noTypes')} />
          ) : (
            <Menu
              mode="inline"
              selectedKeys={code ? [code] : []}
              onClick={({ key }) => setParams({ type: key })}
              items={(types.data ?? []).map((item) => ({
                key: item.code,
                label: (
                  <span className="bwc-dict-type">
                    <span>{localized(item.name, item.name_en, i18n.language)}</span>
                    <Badge count={item.entries} showZero color="#8c8c8c" overflowCount={999} />
                  </span>
                ),
              }))}
            />
          )}
        </div>
        <div className="bwc-dict-entries">
          {type && (
            <div className="bwc-dict-heading">
              {localized(type.name, type.name_en, i18n.language)} <Tag>{type.code}</Tag>
            </div>
          )}
          <CrudTable<DictEntry>
            key={code ?? ''}
            urlKey="entries"
            columns={columns}
            rows={entries}
            loading={types.isPending}
            clientFilter={matches}
            searchItems={searchItems}
          />
        </div>
      </div>
      <DictEntryDialog type={type} {...dialog} />
    </Card>
  );
}
