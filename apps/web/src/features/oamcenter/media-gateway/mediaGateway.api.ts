import type { MediaKickRequest } from '@bwc/protocol';
import { call } from '../../../api/http';
import { oamKeys } from '../oamcenter.api';

export const mediaGatewayKey = [...oamKeys.all, 'mediaGateway'] as const;

/** Streams, publishers and viewers of the node that answers. */
export function fetchMediaGateway(signal?: AbortSignal) {
  return call('mediaGateway', undefined, { signal });
}

/** Closes one viewer (`viewer`) or, without it, stops the publisher and so every viewer. */
export function kickMedia(request: MediaKickRequest) {
  return call('mediaKick', request, { success: true });
}
