import type { EvidenceSource, EvidenceView, MediaType } from '@bwc/protocol';
import { keysOf } from '../../i18n/keys';

export const TYPE_LABELS = keysOf('data', {
  1: 'type.video',
  2: 'type.audio',
  3: 'type.image',
} satisfies Record<MediaType, string>);

export const SOURCE_LABELS = keysOf('data', {
  device: 'source.device',
  workstation: 'source.workstation',
  console: 'source.console',
  live: 'source.live',
} satisfies Record<EvidenceSource, string>);

export const VIEW_TITLES = keysOf('data', {
  law: 'view.law',
  sensitivity: 'view.sensitivity',
  outside: 'view.outside',
  deleted: 'view.deleted',
  alarm: 'view.alarm',
} satisfies Record<EvidenceView, string>);

export const RECORD_KINDS = keysOf('data', {
  all: 'record.kind.all',
  revise: 'record.kind.revise',
  delete: 'record.kind.delete',
  revert: 'record.kind.revert',
  harddel: 'record.kind.harddel',
});

export const PLAYABLE_LABELS = keysOf('data', {
  ready: 'playable.ready',
  pending: 'playable.pending',
  failed: 'playable.failed',
  none: 'playable.none',
});
