import {
  ArchiveMenu,
  type ArchiveState,
  type CaseKind,
  type CaseState,
  type MediaType,
  type ViolationType,
} from '@bwc/protocol';
import { keysOf } from '../../i18n/keys';

/** Query keys of the archive screens (a change invalidates `all`). */
export const archiveKeys = {
  all: ['archive'] as const,
  lists: ['archive', 'list'] as const,
  media: ['archive', 'media'] as const,
  samples: ['archive', 'samples'] as const,
};

/** The menu whose rights govern a record kind (the server checks the same). */
export const menuOfKind = (kind: CaseKind): number => (kind === 'case' ? ArchiveMenu.CASE : ArchiveMenu.LAW_DOC);

export const STATE_LABELS = keysOf('archive', {
  open: 'state.open',
  cancelled: 'state.cancelled',
  closed: 'state.closed',
} satisfies Record<CaseState, string>);

export const ARCHIVE_STATE_LABELS = keysOf('archive', {
  none: 'state.none',
  archived: 'state.archived',
} satisfies Record<ArchiveState, string>);

export const MEDIA_TYPE_LABELS = keysOf('archive', {
  1: 'media.types.1',
  2: 'media.types.2',
  3: 'media.types.3',
} satisfies Record<MediaType, string>);

export const VIOLATION_TYPE_LABELS = keysOf('archive', {
  not_recorded: 'violation.types.not_recorded',
  incomplete: 'violation.types.incomplete',
  covered: 'violation.types.covered',
  no_identity: 'violation.types.no_identity',
  rude_language: 'violation.types.rude_language',
  procedure: 'violation.types.procedure',
  device_misuse: 'violation.types.device_misuse',
  other: 'violation.types.other',
} satisfies Record<ViolationType, string>);
