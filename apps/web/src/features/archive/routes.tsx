import { ArchiveMenu } from '@bwc/protocol';
import type { ReactNode } from 'react';
import { Lazy } from '../../app/routing/guards';
import { lazyPage } from '../../app/routing/lazyPage';

const IncidentsPage = lazyPage(() => import('./RecordsPage'), 'IncidentsPage', ['archive', 'data', 'review']);
const CasesPage = lazyPage(() => import('./RecordsPage'), 'CasesPage', ['archive', 'data', 'review']);
const AlarmMediaPage = lazyPage(() => import('../data/LibraryPage'), 'AlarmRecordingsPage', [
  'access',
  'data',
  'review',
]);
const SamplePage = lazyPage(() => import('./SamplePage'), 'SamplePage', ['archive', 'data', 'review']);

/** /data/archive pages by menu id (placed by app/routing/moduleRoutes.tsx); each a lazy chunk. */
export const archivePages: Readonly<Record<number, ReactNode>> = {
  [ArchiveMenu.LAW_DOC]: (
    <Lazy>
      <IncidentsPage />
    </Lazy>
  ),
  [ArchiveMenu.ALARM_MEDIA]: (
    <Lazy>
      <AlarmMediaPage />
    </Lazy>
  ),
  [ArchiveMenu.CASE]: (
    <Lazy>
      <CasesPage />
    </Lazy>
  ),
  [ArchiveMenu.SAMPLE]: (
    <Lazy>
      <SamplePage />
    </Lazy>
  ),
};
