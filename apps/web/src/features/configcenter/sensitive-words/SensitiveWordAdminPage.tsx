import { MenuId, type SensitiveWord } from '@bwc/protocol';
import { Alert, Card } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/http';
import { useCrud } from '../../../components/crud';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import type { SearchItem } from '../../../components/search-bar';
import { formatTime } from '../../../format/time';
import { SensitiveWordDialog } from './SensitiveWordDialog';

export const sensitiveWordKeys = { all: ['sensitiveWords'] as const };

/**
 * /configcenter/Admin/SensitiveWordAdmin (10462): the words that make an evidence item sensitive
 * (its title, description or incident number contains one, in any case). View lists, add adds,
 * edit changes and deletes; the server then recomputes every item's mark in the background.
 */
export function SensitiveWordAdminPage() {
  const { t } = useTranslation('retention');
  const { dialog, addButton, editAction, deleteAction } = useCrud<SensitiveWord>({
    menu: MenuId.SENSITIVE_WORDS,
    invalidate: [sensitiveWordKeys.all],
  });

  const searchItems = useMemo<SearchItem[]>(
    () => [
      { type: 'text', name: 'keyword', label: t('words.keyword'), placeholder: t('words.keywordHint'), width: 200 },
      addButton(t('words.add')),
    ],
    [t, addButton],
  );

  const columns = useMemo<DataTableColumn<SensitiveWord>[]>(
    () => [
      { title: t('words.word'), dataIndex: 'word', key: 'word' },
      {
        title: t('words.updated'),
        dataIndex: 'updated',
        key: 'updated',
        width: 170,
        render: (at: string) => formatTime(at),
      },
      {
        kind: 'operation',
        width: 120,
        actions: [
          editAction(t('action.edit')),
          deleteAction({
            label: t('action.delete'),
            confirm: t('words.deleteQuestion'),
            remove: (row) => call('sensitiveWordDelete', { ids: [row.id] }, { success: true }),
          }),
        ],
      },
    ],
    [t, editAction, deleteAction],
  );

  return (
    <Card title={t('words.title')} data-testid="sensitive-words">
      <Alert type="info" showIcon message={t('words.note')} style={{ marginBottom: 12 }} />
      <DataTable<SensitiveWord>
        queryKey={[...sensitiveWordKeys.all]}
        fetch={({ page, limit, filters }) =>
          call('sensitiveWordList', {
            page,
            limit,
            keyword: typeof filters.keyword === 'string' && filters.keyword.trim() ? filters.keyword.trim() : undefined,
          })
        }
        columns={columns}
        searchItems={searchItems}
      />
      <SensitiveWordDialog {...dialog} />
    </Card>
  );
}
