import { MODULES } from '@bwc/protocol';
import type { Db } from '../connection';

/** Keep the modules table equal to the protocol catalogue (runs at every start, idempotent). */
export async function syncModules(db: Db): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const existing = new Set((await trx.selectFrom('modules').select('id').execute()).map((r) => r.id));
    for (const [sort, m] of MODULES.entries()) {
      const row = { bh: m.bh, pid: m.pid, key: m.key, path: m.path, sort };
      if (existing.has(m.id)) await trx.updateTable('modules').set(row).where('id', '=', m.id).execute();
      else
        await trx
          .insertInto('modules')
          .values({ id: m.id, ...row })
          .execute();
    }
  });
}
