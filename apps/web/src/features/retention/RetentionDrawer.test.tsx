import { Api, DICT_TYPES, MenuId, RETENTION_REASON } from '@bwc/protocol';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../components/test-utils';
import { DeletedMediaPage } from '../data/DeletedPage';
import { EditRecordPage } from '../data/EditRecordPage';
import { fakeServer } from '../data/fakeServer';
import { testMedia } from '../data/test-media';
import { RetentionDrawer } from './RetentionDrawer';

afterEach(() => vi.unstubAllGlobals());

const policy = {
  rules: [{ category: 'traffic', days: 30, updated: '2026-06-01T00:00:00.000Z' }],
  default_days: 365,
  last_run: '',
};
const categories = [
  {
    id: 1,
    type: DICT_TYPES.MEDIA_CATEGORY,
    key: 'traffic',
    label: '交通',
    label_en: 'Traffic',
    sort: 0,
    enabled: 1,
    builtin: 0,
    updated: '',
  },
  {
    id: 2,
    type: DICT_TYPES.MEDIA_CATEGORY,
    key: 'criminal',
    label: '刑事',
    label_en: 'Criminal',
    sort: 1,
    enabled: 1,
    builtin: 0,
    updated: '',
  },
];
const due = [
  {
    id: 7,
    title: 'old patrol',
    file_name: 'a.mp4',
    category: 'traffic',
    unit_id: 1,
    unit_name: 'Futian',
    recorded_at: '2026-04-01T00:00:00.000Z',
    due_at: '2026-05-01T00:00:00.000Z',
    rule: 'traffic',
    days: 30,
  },
  {
    id: 8,
    title: 'no category',
    file_name: 'b.mp4',
    category: '',
    unit_id: 1,
    unit_name: 'Futian',
    recorded_at: '2025-06-01T00:00:00.000Z',
    due_at: '2026-06-01T00:00:00.000Z',
    rule: '',
    days: 365,
  },
];

function server() {
  return fakeServer((path) => {
    if (path === Api.retentionGet.path) return policy;
    if (path === Api.retentionUpdate.path) return policy;
    if (path === Api.dictList.path) return categories;
    if (path === Api.retentionPreview.path) return { total: 2, page: 1, limit: 20, list: due };
    if (path === Api.retentionRun.path) return { deleted: 2, purged: 1, exempt: 3 };
    return null;
  });
}

const row = (id: number) => document.querySelector<HTMLElement>(`tr[data-row-key="${id}"]`);

describe('retention policy', () => {
  it('shows the rules, the file-storage default and the items due with their rule', async () => {
    const s = server();
    await renderWidget(<RetentionDrawer open onClose={() => undefined} />, {
      url: '/data/edit/deleted',
      permissions: { [MenuId.DELETED_MEDIA]: { view: 1 } },
      language: 'en-US',
    });
    expect((await screen.findByTestId('retention-default')).textContent).toContain('365 days');
    await waitFor(() => expect(row(8)).not.toBeNull());
    expect(s.calls(Api.retentionPreview.path)[0]).toMatchObject({ days: 7 });
    expect(within(row(7)!).getByTestId('retention-rule').textContent).toBe('Traffic: 30 days');
    expect(within(row(8)!).getByTestId('retention-rule').textContent).toBe('Default: 365 days');
    expect(row(7)!.textContent).toContain('Traffic');
    expect(screen.getAllByTestId('retention-rule-row')).toHaveLength(1);
    // view only: no run, no add, no save
    expect(screen.queryByTestId('retention-run')).toBeNull();
    expect(screen.queryByTestId('retention-add-rule')).toBeNull();
  });

  it('saves the rules and runs now after a confirm', async () => {
    const s = server();
    const onRun = vi.fn();
    await renderWidget(<RetentionDrawer open onClose={() => undefined} onRun={onRun} />, {
      url: '/data/edit/deleted',
      permissions: { [MenuId.DELETED_MEDIA]: { view: 1, edit: 1 } },
      language: 'en-US',
    });
    await waitFor(() => expect(screen.getAllByTestId('retention-rule-row')).toHaveLength(1));
    const days = within(screen.getAllByTestId('retention-rule-row')[0]!).getByRole('spinbutton');
    await waitFor(() => expect((days as HTMLInputElement).value).toBe('30'));
    fireEvent.change(days, { target: { value: '45' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    });
    await waitFor(() =>
      expect(s.calls(Api.retentionUpdate.path)).toEqual([{ rules: [{ category: 'traffic', days: 45 }] }]),
    );

    fireEvent.click(screen.getByTestId('retention-run'));
    const ok = await waitFor(() => {
      const button = document.querySelector<HTMLElement>('.ant-modal-confirm .ant-btn-dangerous');
      expect(button).not.toBeNull();
      return button!;
    });
    expect(s.calls(Api.retentionRun.path)).toHaveLength(0);
    await act(async () => {
      fireEvent.click(ok);
    });
    await waitFor(() => expect(s.calls(Api.retentionRun.path)).toHaveLength(1));
    expect((await screen.findByTestId('retention-result')).textContent).toContain(
      '2 deleted, 1 removed for good, 3 kept',
    );
    expect(onRun).toHaveBeenCalled();
  });

  it('opens from the deleted view, whose retention deletions read as such', async () => {
    fakeServer((path) => {
      if (path === Api.mediaList.path)
        return {
          total: 1,
          page: 1,
          limit: 20,
          list: [testMedia(3, { deleted_at: new Date().toISOString(), delete_reason: RETENTION_REASON })],
        };
      if (path === Api.retentionGet.path) return policy;
      if (path === Api.dictList.path) return categories;
      if (path === Api.retentionPreview.path) return { total: 0, page: 1, limit: 20, list: [] };
      return null;
    });
    await renderWidget(<DeletedMediaPage />, {
      url: '/data/edit/deleted',
      permissions: { [MenuId.DELETED_MEDIA]: { view: 1 } },
      language: 'en-US',
    });
    await waitFor(() => expect(row(3)).not.toBeNull());
    expect(row(3)!.textContent).toContain('Retention period over');
    fireEvent.click(screen.getByTestId('retention-open'));
    expect((await screen.findByTestId('retention-default')).textContent).toContain('365 days');
  });

  it('edit records name the retention policy as reason and actor', async () => {
    fakeServer((path) =>
      path === Api.mediaEditRecord.path
        ? {
            total: 1,
            page: 1,
            limit: 20,
            list: [
              {
                id: 5,
                media_id: 3,
                media_title: 'old patrol',
                kind: 'delete',
                user_name: '',
                unit_name: '',
                at: '2026-06-01T00:00:00.000Z',
                reason: RETENTION_REASON,
                detail: '',
              },
            ],
          }
        : null,
    );
    await renderWidget(<EditRecordPage />, {
      url: '/data/edit/record',
      permissions: { [MenuId.EDIT_RECORD]: { view: 1 } },
      language: 'en-US',
    });
    await waitFor(() => expect(row(5)).not.toBeNull());
    expect(row(5)!.textContent).toContain('Retention period over');
    expect(row(5)!.textContent).toContain('Retention policy (system)');
  });
});
