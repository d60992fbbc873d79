import { Api, MenuId } from '@bwc/protocol';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWidget } from '../../components/test-utils';
import { CustodyDialog } from './CustodyDialog';
import { fakeServer } from './fakeServer';
import { LibraryPage } from './LibraryPage';
import { testMedia } from './test-media';

afterEach(() => vi.unstubAllGlobals());

const row = (id: number) => document.querySelector<HTMLElement>(`tr[data-row-key="${id}"]`);

describe('evidence downloads and custody reports', () => {
  it('downloads the checked rows as one zip from its signed address', async () => {
    const zipUrl = '/media/evidence/zip?ids=1,2&token=7.1.x';
    const server = fakeServer((path) => {
      if (path === Api.mediaList.path) return { total: 2, page: 1, limit: 20, list: [testMedia(1), testMedia(2)] };
      if (path === Api.mediaDownloadAll.path) return { url: zipUrl, file_name: 'evidence.zip', count: 2, expires: 1 };
      return [];
    });
    const open = vi.fn();
    vi.stubGlobal('open', open);
    await renderWidget(<LibraryPage view="law" />, {
      url: '/data/manage/law',
      permissions: { [MenuId.LAW_MEDIA]: { view: 1, edit: 1 } },
      language: 'en-US',
    });
    await waitFor(() => expect(row(2)).not.toBeNull());
    const button = screen.getByTestId('evidence-bulk-download');
    expect(button.textContent).toContain('Download selected (zip)');
    expect(button).toHaveProperty('disabled', true);
    fireEvent.click(row(1)!.querySelector('input[type="checkbox"]')!);
    fireEvent.click(row(2)!.querySelector('input[type="checkbox"]')!);
    await waitFor(() => expect(button).toHaveProperty('disabled', false));
    fireEvent.click(button);
    await waitFor(() => expect(open).toHaveBeenCalledWith(zipUrl, '_blank', 'noopener'));
    expect(server.calls(Api.mediaDownloadAll.path)).toEqual([{ ids: [1, 2] }]);
  });

  it('exports the custody report as PDF and as Excel', async () => {
    const asked: string[] = [];
    const custody = {
      media_id: 5,
      sha256: 'b'.repeat(64),
      chain_ok: true,
      broken_at: null,
      entries: [],
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (String(url).startsWith(Api.mediaCustodyExport.path)) {
          asked.push(String(url));
          return new Response(new Blob(['%PDF-1.3']), {
            headers: {
              'content-type': 'application/pdf',
              'content-disposition': `attachment; filename="custody_5.pdf"`,
            },
          });
        }
        return new Response(JSON.stringify({ code: 200, msg: '', data: custody }), {
          headers: { 'content-type': 'application/json' },
        });
      }),
    );
    const created = vi.fn(() => 'blob:report');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() }));
    await renderWidget(<CustodyDialog item={testMedia(5)} onClose={() => undefined} />, { language: 'zh-CN' });
    const pdf = await screen.findByTestId('custody-export-pdf');
    expect(pdf.textContent).toContain('导出 PDF');
    fireEvent.click(pdf);
    await waitFor(() => expect(asked).toHaveLength(1));
    fireEvent.click(screen.getByTestId('custody-export-xlsx'));
    await waitFor(() => expect(asked).toHaveLength(2));
    const query = asked.map((u) => Object.fromEntries(new URL(u, 'http://x').searchParams));
    expect(query).toEqual([
      { id: '5', format: 'pdf' },
      { id: '5', format: 'xlsx' },
    ]);
    await waitFor(() => expect(created).toHaveBeenCalledTimes(2));
  });
});
