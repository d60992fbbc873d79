/**
 * Re-hash every evidence original (and its thumbnail and derivative) in the content store and
 * verify every custody chain; print each mismatch; exit 1 on any, 0 when everything verifies.
 *
 *   npm run evidence:verify                        DATA_DIR / DATABASE_URL as the server reads them
 *   npm run evidence:verify -- --data-dir ./data --database-url postgres://...
 */
import { loadConfig } from '../config';
import { createDb } from '../db/connection';
import { verifyAll } from '../modules/evidence/library/verify';
import { LocalContentStore } from '../modules/evidence/store';

async function main(): Promise<number> {
  const config = loadConfig(process.env, process.argv.slice(2));
  const db = createDb(config.database);
  let problems = 0;
  try {
    const checked = await verifyAll(db, new LocalContentStore(config.dataDir), (p) => {
      problems += 1;
      if (p.what === 'chain') console.log(`item ${p.id}: custody chain broken at entry ${p.brokenAt ?? '?'}`);
      else console.log(`item ${p.id}: ${p.what} ${p.sha256} does not match its content (${p.actual})`);
    });
    console.log(`evidence:verify: ${checked} items checked, ${problems} mismatches`);
  } finally {
    await db.destroy();
  }
  return problems ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`evidence:verify: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(2);
  },
);
