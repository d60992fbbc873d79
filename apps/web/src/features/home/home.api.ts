import type { Announcement, DownloadEntry, Page } from '@bwc/protocol';
import { useQuery } from '@tanstack/react-query';
import { call, download } from '../../api/http';

export const homeKeys = {
  home: ['home'] as const,
  announcement: (id: number) => ['announcements', 'one', id] as const,
  published: ['announcements', 'published'] as const,
  center: ['downloads', 'center'] as const,
};

export function useHome() {
  return useQuery({ queryKey: homeKeys.home, queryFn: ({ signal }) => call('home', undefined, { signal }) });
}

/** One announcement (published ones for everybody, drafts for holders of view on noticeEdit). */
export function useAnnouncement(id: number | null) {
  return useQuery({
    queryKey: homeKeys.announcement(id ?? 0),
    queryFn: ({ signal }) => call('announceGetById', { id }, { signal }),
    enabled: id !== null,
  });
}

export function fetchPublished(page: number, limit: number, signal?: AbortSignal): Promise<Page<Announcement>> {
  return call('announcePublished', { page, limit }, signal ? { signal } : {});
}

/** Every download entry, for the download center. */
export function useDownloadCenter() {
  return useQuery({
    queryKey: homeKeys.center,
    queryFn: ({ signal }) => call('downloadCenter', undefined, { signal }),
  });
}

/** Saves the entry's file under the name its content-disposition carries. */
export function downloadEntryFile(entry: Pick<DownloadEntry, 'id' | 'file_name'>) {
  return download('downloadFile', { id: entry.id }, { fallbackName: entry.file_name });
}
