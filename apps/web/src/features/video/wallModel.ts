import { SPLIT_SCREEN_CHOICES } from '@bwc/protocol';
import type { LiveDevice } from './liveSource';
import type { LivePlayer } from './player/LivePlayer';
import { claimPlayerSlot, openPlayerCount } from './playerSlots';

export type Split = (typeof SPLIT_SCREEN_CHOICES)[number];
export const SPLITS: readonly Split[] = SPLIT_SCREEN_CHOICES;

/** The wall for a configured number of pictures (play_get video_live_num, 1..16): the smallest split that holds it. */
export function splitFor(count: number): Split {
  return SPLITS.find((split) => split >= count) ?? SPLITS[SPLITS.length - 1]!;
}

/** Grid of a split: columns, and whether the first tile is the big one (6 = one 2x2 + five). */
export function splitGrid(split: Split): { columns: number; big: boolean } {
  if (split === 6) return { columns: 3, big: true };
  return { columns: Math.sqrt(split), big: false };
}

export interface WallTile {
  /** changes with every device opened in the tile, so its view mounts anew */
  key: number;
  device: LiveDevice;
  player: LivePlayer;
  release: () => void;
}

export interface WallSnapshot {
  split: Split;
  /** one entry per tile of the split */
  tiles: readonly (WallTile | null)[];
  selected: number | null;
}

/**
 * - opened: the device plays in tile `index`;
 * - already: it was on the wall, its tile is now selected;
 * - limit: LIVE_PLAYERS_MAX players are open in this console;
 * - full: no free tile and none selected.
 */
export type OpenResult =
  { kind: 'opened'; index: number } | { kind: 'already'; index: number } | { kind: 'limit' } | { kind: 'full' };

export interface WallDeps {
  createPlayer: (device: LiveDevice) => LivePlayer;
  /** this console closed its player of the device (live_del) */
  releaseLive: (player: LivePlayer, device: LiveDevice) => void;
  /** every player of this console closed (live_alldel) */
  releaseAll: () => void;
}

/**
 * The tiles of a video wall, outside React (opens come from clicks, drops and alarm events in
 * quick succession; each must see the previous one). Views follow `subscribe` / `getSnapshot`.
 */
export class WallModel {
  private snapshot: WallSnapshot;
  private readonly listeners = new Set<() => void>();
  private nextKey = 1;

  constructor(
    private readonly deps: WallDeps,
    split: Split = 9,
  ) {
    this.snapshot = { split, tiles: Array<WallTile | null>(split).fill(null), selected: null };
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): WallSnapshot => this.snapshot;

  private update(next: Partial<WallSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...next };
    for (const listener of [...this.listeners]) listener();
  }

  select(index: number | null): void {
    this.update({ selected: index === this.snapshot.selected ? null : index });
  }

  /** Opens the device in tile `at`, else the selected tile, else the first free one. */
  open(device: LiveDevice, at?: number): OpenResult {
    const { tiles, selected } = this.snapshot;
    const shown = tiles.findIndex((tile) => tile?.device.id === device.id);
    if (shown >= 0 && (at === undefined || at === shown)) {
      this.update({ selected: shown });
      return { kind: 'already', index: shown };
    }
    const index = at ?? selected ?? tiles.findIndex((tile) => tile === null);
    if (index < 0 || index >= tiles.length) return { kind: 'full' };
    const previous = tiles[index] ?? null;
    if (shown >= 0) {
      // dropped on another tile: the two tiles swap, the players keep playing
      const next = [...tiles];
      next[index] = tiles[shown]!;
      next[shown] = previous;
      this.update({ tiles: next, selected: null });
      return { kind: 'opened', index };
    }
    // a tile that shows another device hands its slot on; an empty one needs a free slot
    const release = previous ? previous.release : claimPlayerSlot();
    if (!release) return { kind: 'limit' };
    if (previous) this.stop(previous, false);
    const next = [...tiles];
    next[index] = { key: this.nextKey++, device, player: this.deps.createPlayer(device), release };
    this.update({ tiles: next, selected: null });
    return { kind: 'opened', index };
  }

  close(index: number): void {
    const tile = this.snapshot.tiles[index];
    if (!tile) return;
    this.stop(tile, true);
    this.update({ tiles: this.snapshot.tiles.map((t, i) => (i === index ? null : t)) });
  }

  /** Closes the device's tile, if it is on the wall (e.g. it went offline). */
  closeDevice(deviceId: number): void {
    const index = this.snapshot.tiles.findIndex((tile) => tile?.device.id === deviceId);
    if (index >= 0) this.close(index);
  }

  /** A smaller split closes the tiles beyond it. */
  setSplit(split: Split): void {
    const { tiles, selected } = this.snapshot;
    tiles.slice(split).forEach((tile) => tile && this.stop(tile, true));
    const next = Array.from({ length: split }, (_, i) => tiles[i] ?? null);
    this.update({ split, tiles: next, selected: selected !== null && selected < split ? selected : null });
  }

  /** The wall goes away: every player stops; the server is told at once when no other player is left. */
  dispose(): void {
    const open = this.snapshot.tiles.filter((tile): tile is WallTile => tile !== null);
    for (const tile of open) {
      tile.player.destroy();
      tile.release();
    }
    if (open.length > 0 && openPlayerCount() === 0) this.deps.releaseAll();
    else for (const tile of open) this.deps.releaseLive(tile.player, tile.device);
    this.update({ tiles: this.snapshot.tiles.map(() => null), selected: null });
  }

  private stop(tile: WallTile, releaseSlot: boolean): void {
    this.deps.releaseLive(tile.player, tile.device);
    tile.player.destroy();
    if (releaseSlot) tile.release();
  }
}
