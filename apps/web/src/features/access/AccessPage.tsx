import { MenuId, type AccessRequest, type AccessState, type ShareLink } from '@bwc/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Tabs, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/http';
import { usePermission } from '../../app/session/Permission';
import { DataTable, type DataTableColumn } from '../../components/data-table';
import type { SearchItem } from '../../components/search-bar';
import { formatTime } from '../../format/time';
import { currentLanguage } from '../../i18n';
import { DecideDialog, RequestDialog, RequestDrawer } from './AccessDialogs';
import { LINK_STATE_LABELS, STATE_LABELS } from './labels';

const STATE_COLORS: Record<AccessState, string | undefined> = {
  pending: 'blue',
  approved: 'green',
  refused: 'red',
  withdrawn: undefined,
};

export const accessKeys = { all: ['access'] as const };

/** Whether the user may approve requests and make share links: 'edit' on a library menu. */
export function useLibraryEdit(): boolean {
  const law = usePermission(MenuId.LAW_MEDIA, 'edit');
  const outside = usePermission(MenuId.OUTSIDE_MEDIA, 'edit');
  const sensitive = usePermission(MenuId.SENSITIVE_MEDIA, 'edit');
  return law || outside || sensitive;
}

function RequestsTable({ side }: { side: 'from' | 'to' }) {
  const { t } = useTranslation('access');
  const queryClient = useQueryClient();
  const [viewing, setViewing] = useState<number | null>(null);
  const [deciding, setDeciding] = useState<{ request: AccessRequest; approve: boolean } | null>(null);
  const reload = () => queryClient.invalidateQueries({ queryKey: accessKeys.all });
  const searchItems = useMemo<SearchItem[]>(
    () => [
      {
        type: 'select',
        name: 'state',
        label: t('column.state'),
        width: 120,
        options: (Object.keys(STATE_LABELS) as AccessState[]).map((s) => ({ value: s, label: t(STATE_LABELS[s]) })),
      },
    ],
    [t],
  );
  const columns = useMemo<DataTableColumn<AccessRequest>[]>(
    () => [
      side === 'from'
        ? { title: t('column.toUnit'), dataIndex: 'to_unit_name', key: 'to', width: 160 }
        : {
            title: t('column.requester'),
            key: 'requester',
            width: 200,
            render: (_: unknown, r: AccessRequest) => `${r.requester_name} / ${r.from_unit_name}`,
          },
      {
        title: t('column.scope'),
        key: 'scope',
        width: 220,
        render: (_: unknown, r: AccessRequest) =>
          r.media_ids.length
            ? t('scope.ids', { ids: r.media_ids.join(', ') })
            : t('scope.range', { start: formatTime(r.start) || '-', end: formatTime(r.end) || '-' }),
      },
      { title: t('field.reason'), dataIndex: 'reason', key: 'reason', ellipsis: true },
      {
        title: t('column.state'),
        key: 'state',
        width: 110,
        render: (_: unknown, r: AccessRequest) => (
          <Tag color={STATE_COLORS[r.state]} data-testid={`access-state-${r.id}`}>
            {r.state === 'approved' && !r.active ? t('state.expired') : t(STATE_LABELS[r.state])}
          </Tag>
        ),
      },
      {
        title: t('column.expires'),
        key: 'expires',
        width: 160,
        render: (_: unknown, r: AccessRequest) => formatTime(r.expires_at ?? r.requested_until),
      },
      { title: t('column.items'), dataIndex: 'item_count', key: 'items', width: 80 },
      {
        title: t('column.created'),
        dataIndex: 'created_at',
        key: 'created',
        width: 160,
        render: (v: string) => formatTime(v),
      },
      {
        kind: 'operation',
        width: 180,
        fixed: 'right',
        actions: [
          { key: 'view', label: t('action.view'), onClick: (r) => setViewing(r.id) },
          ...(side === 'from'
            ? [
                {
                  key: 'withdraw',
                  label: t('action.withdraw'),
                  danger: true,
                  confirm: t('action.withdrawConfirm'),
                  hidden: (r: AccessRequest) => r.state !== 'pending' && !(r.state === 'approved' && r.active),
                  onClick: (r: AccessRequest) => call('accessFromDel', { id: r.id }, { success: true }),
                },
              ]
            : [
                {
                  key: 'approve',
                  label: t('decide.approve'),
                  hidden: (r: AccessRequest) => r.state !== 'pending',
                  onClick: (r: AccessRequest) => setDeciding({ request: r, approve: true }),
                },
                {
                  key: 'refuse',
                  label: t('decide.refuse'),
                  danger: true,
                  hidden: (r: AccessRequest) => r.state !== 'pending',
                  onClick: (r: AccessRequest) => setDeciding({ request: r, approve: false }),
                },
              ]),
        ],
      },
    ],
    [t, side],
  );
  return (
    <>
      <DataTable<AccessRequest>
        urlKey={side}
        queryKey={[...accessKeys.all, side, currentLanguage()]}
        fetch={({ page, limit, filters }) =>
          call(side === 'from' ? 'accessFromList' : 'accessToList', {
            page,
            limit,
            state: (filters.state as AccessState | undefined) || undefined,
          })
        }
        columns={columns}
        searchItems={searchItems}
        scroll={{ x: 1200 }}
      />
      <RequestDrawer side={side} id={viewing} onClose={() => setViewing(null)} />
      <DecideDialog
        request={deciding?.request ?? null}
        approve={deciding?.approve ?? true}
        onClose={() => setDeciding(null)}
        onDone={() => void reload()}
      />
    </>
  );
}

export function ShareLinksTable() {
  const { t } = useTranslation('access');
  const columns = useMemo<DataTableColumn<ShareLink>[]>(
    () => [
      { title: t('field.recipient'), dataIndex: 'recipient', key: 'recipient', width: 160 },
      {
        title: t('column.items'),
        key: 'items',
        width: 160,
        render: (_: unknown, l: ShareLink) => l.media_ids.join(', '),
      },
      {
        title: t('column.state'),
        key: 'state',
        width: 100,
        render: (_: unknown, l: ShareLink) => (
          <Tag
            color={l.state === 'active' ? 'green' : l.state === 'revoked' ? 'red' : undefined}
            data-testid={`link-state-${l.id}`}
          >
            {t(LINK_STATE_LABELS[l.state])}
          </Tag>
        ),
      },
      {
        title: t('field.password'),
        key: 'password',
        width: 80,
        render: (_: unknown, l: ShareLink) => (l.has_password ? t('share.yes') : t('share.no')),
      },
      { title: t('column.visits'), dataIndex: 'visits', key: 'visits', width: 80 },
      {
        title: t('column.lastVisit'),
        dataIndex: 'last_visit_at',
        key: 'last',
        width: 160,
        render: (v: string | null) => formatTime(v) || '-',
      },
      {
        title: t('column.expires'),
        dataIndex: 'expires_at',
        key: 'expires',
        width: 160,
        render: (v: string) => formatTime(v),
      },
      {
        title: t('column.creator'),
        key: 'creator',
        width: 160,
        render: (_: unknown, l: ShareLink) => `${l.created_by_name} / ${l.unit_name}`,
      },
      {
        kind: 'operation',
        width: 100,
        fixed: 'right',
        actions: [
          {
            key: 'revoke',
            label: t('action.revoke'),
            danger: true,
            confirm: t('action.revokeConfirm'),
            hidden: (l) => l.state !== 'active',
            onClick: (l) => call('shareRevoke', { id: l.id }, { success: true }),
          },
        ],
      },
    ],
    [t],
  );
  return (
    <DataTable<ShareLink>
      urlKey="links"
      queryKey={[...accessKeys.all, 'links', currentLanguage()]}
      fetch={({ page, limit }) => call('shareList', { page, limit })}
      columns={columns}
      scroll={{ x: 1200 }}
    />
  );
}

/**
 * /data/access: my unit's requests for other units' items (with "request access"), requests to my
 * units (approve / refuse, for holders of 'edit' on a library menu) and the share links made in my
 * units (visits, revoke). Granted items are opened from a request's details, not from the library.
 */
export function AccessPage() {
  const { t } = useTranslation('access');
  const queryClient = useQueryClient();
  const canEdit = useLibraryEdit();
  const [requesting, setRequesting] = useState(false);
  const tabs = [
    { key: 'from', label: t('tab.mine'), children: <RequestsTable side="from" /> },
    ...(canEdit
      ? [
          { key: 'to', label: t('tab.incoming'), children: <RequestsTable side="to" /> },
          { key: 'links', label: t('tab.links'), children: <ShareLinksTable /> },
        ]
      : []),
  ];
  return (
    <Card
      title={t('title')}
      data-testid="access-page"
      extra={
        <Button type="primary" onClick={() => setRequesting(true)} data-testid="access-new">
          {t('request.title')}
        </Button>
      }
    >
      <Tabs items={tabs} destroyOnHidden />
      <RequestDialog
        open={requesting}
        onClose={() => setRequesting(false)}
        onDone={() => void queryClient.invalidateQueries({ queryKey: accessKeys.all })}
      />
    </Card>
  );
}
