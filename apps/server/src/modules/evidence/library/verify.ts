import type { Db } from '../../../db/connection';
import { verifyChain } from '../custody';
import type { ContentStore } from '../store';

export type Problem =
  | { id: number; what: 'original' | 'thumb' | 'derivative'; sha256: string; actual: string }
  | { id: number; what: 'chain'; brokenAt: number | null };

/**
 * Re-hash every stored file of every item (original, thumbnail, derivative: each is named by its
 * SHA-256) and verify every custody chain, purged tombstones' chains included. Read-only: it
 * reports, it appends nothing. `onProblem` is called per mismatch; answers the items checked.
 */
export async function verifyAll(db: Db, store: ContentStore, onProblem: (p: Problem) => void): Promise<number> {
  let after = 0;
  let checked = 0;
  for (;;) {
    const rows = await db
      .selectFrom('evidence_items')
      .select(['id', 'sha256', 'thumb_sha256', 'derivative_sha256', 'purged_at'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(500)
      .execute();
    if (!rows.length) return checked;
    for (const row of rows) {
      after = row.id;
      checked += 1;
      if (row.purged_at === null) {
        const files = [
          ['original', row.sha256],
          ['thumb', row.thumb_sha256],
          ['derivative', row.derivative_sha256],
        ] as const;
        for (const [what, sha] of files) {
          if (!sha) continue;
          const actual = (await store.has(sha)) ? await store.rehash(sha) : 'missing';
          if (actual !== sha) onProblem({ id: row.id, what, sha256: sha, actual });
        }
      }
      const chain = await verifyChain(db, row.id);
      if (!chain.ok) onProblem({ id: row.id, what: 'chain', brokenAt: chain.brokenAt });
    }
  }
}
