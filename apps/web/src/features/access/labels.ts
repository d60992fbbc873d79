import type { AccessState, ShareLink } from '@bwc/protocol';

export const STATE_LABELS: Record<AccessState, string> = {
  pending: 'state.pending',
  approved: 'state.approved',
  refused: 'state.refused',
  withdrawn: 'state.withdrawn',
};

export const LINK_STATE_LABELS: Record<ShareLink['state'], string> = {
  active: 'linkState.active',
  expired: 'linkState.expired',
  revoked: 'linkState.revoked',
};
