import { mulberry32 } from '@bwc/protocol';

/**
 * The random draw of a check batch, reproducible from its seed: mulberry32 (a small, well-known
 * 32-bit generator) drives a partial Fisher-Yates shuffle of the candidate ids in ascending order.
 * The same seed over the same candidates gives the same sample, in the same order.
 */

/** `n` of `candidates` (sorted ascending first) chosen by the seeded shuffle. */
export function drawSample(candidates: readonly number[], seed: number, n: number): number[] {
  const ids = [...candidates].sort((a, b) => a - b);
  const next = mulberry32(seed);
  const k = Math.min(n, ids.length);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(next() * (ids.length - i));
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  }
  return ids.slice(0, k);
}
