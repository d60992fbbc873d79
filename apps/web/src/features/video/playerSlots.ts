import { LIVE_PLAYERS_MAX } from '@bwc/protocol';

/**
 * Live players open in this console, wherever they are (wall tiles, floating players): at most
 * LIVE_PLAYERS_MAX at once (spec part 2 section 9). A player takes a slot when it opens and gives
 * it back when it closes.
 */
const taken = new Set<symbol>();

/** A release function, or null when every slot is taken. */
export function claimPlayerSlot(): (() => void) | null {
  if (taken.size >= LIVE_PLAYERS_MAX) return null;
  const slot = Symbol('live player');
  taken.add(slot);
  return () => void taken.delete(slot);
}

export function openPlayerCount(): number {
  return taken.size;
}
