import { Api, type DownloadEntry, type Page } from '@bwc/protocol';
import type { DownloadRow } from '../../db/types';

export function downloadUrl(id: number): string {
  return `${Api.downloadFile.path}?id=${id}`;
}

/** The only path from a download row to the wire: the stored name and hash stay inside. */
export function presentDownload(row: DownloadRow): DownloadEntry {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    version: row.version,
    file_name: row.file_name,
    file_size: Number(row.file_size),
    is_index: row.is_index,
    create_time: row.created,
    url: downloadUrl(row.id),
  };
}

export function presentDownloadPage(
  result: { total: number; rows: DownloadRow[] },
  page: number,
  limit: number,
): Page<DownloadEntry> {
  return { total: result.total, page, limit, list: result.rows.map(presentDownload) };
}
