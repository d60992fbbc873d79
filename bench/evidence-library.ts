// Evidence library page latency (issue 15 section 6): the filtered library page (POST
// rest/media/media/get) p95 with 1,000,000 items, on SQLite and, with TEST_DATABASE_URL, on
// PostgreSQL. The anchor, measured in the same run on the same server, is the same requests over an
// empty library: the ratio is the cost of the million rows.
//
//   npx tsx bench/evidence-library.ts [--items 1000000] [--rounds 40]
//   TEST_DATABASE_URL=postgres://bwc:bwc@127.0.0.1:5432/bwc_test npx tsx bench/evidence-library.ts
//
// Items are written by one INSERT ... SELECT over a number series (not through the upload path:
// the page query is what is measured here; bench/evidence-upload.ts measures ingest), spread over
// the demo's units and devices, all three media types, four years of recorded-on times, 1 in 20
// marked, 1 in 50 deleted, 1 in 10 linked.
import { parseArgs } from 'node:util';
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../apps/server/src/db/connection';
import { createTestApp, DEMO, login, usingPostgres } from '../apps/server/test/helpers';

const { values } = parseArgs({
  options: { items: { type: 'string', default: '1000000' }, rounds: { type: 'string', default: '40' } },
});
const ITEMS = Number(values.items);
const ROUNDS = Number(values.rounds);

const test = await createTestApp({ logLevel: 'silent' });
const { app, db } = test;
const session = await login(app, DEMO.admin.username, DEMO.admin.password);
// a unit administrator sees his unit and its descendants only (unit scope in every query)
const scoped = await login(app, DEMO.unitadmin.username, DEMO.unitadmin.password);
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

const units = (await db.selectFrom('units').select(['id', 'pid']).execute()).map((u) => u.id);
// device ids as the items carry them (the test app has no devices: ids 1..200 then, unjoined)
const deviceRows = (await db.selectFrom('devices').select('id').execute()).map((d) => d.id);
const devices = deviceRows.length ? deviceRows : Array.from({ length: 200 }, (_, i) => i + 1);
const sub = (await db.selectFrom('units').select('id').where('pid', '!=', 0).executeTakeFirst())?.id ?? units[0]!;

const NOW = Date.parse('2026-11-27T00:00:00Z');
const day = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** the page requests of one round: what a user of the library does */
const requests: { name: string; body: Record<string, unknown>; scoped?: boolean }[] = [
  { name: 'law, newest first', body: { view: 'law', page: 1, limit: 20 } },
  { name: 'law, page 50', body: { view: 'law', page: 50, limit: 20 } },
  {
    name: 'unit + video + last 30 days',
    body: {
      view: 'law',
      unit_id: sub,
      media_type: 1,
      recorded_start: iso(NOW - 30 * day),
      recorded_end: iso(NOW),
      limit: 20,
    },
  },
  { name: 'device + marked', body: { view: 'law', device_id: devices[0], flg: 1, limit: 20 } },
  {
    name: 'linked, uploaded last 90 days',
    body: { view: 'law', linked: 1, uploaded_start: iso(NOW - 90 * day), limit: 50 },
  },
  { name: 'deleted', body: { view: 'deleted', limit: 20 } },
  { name: 'keyword (title contains)', body: { view: 'law', keyword: 'clip-4242', limit: 20 } },
  { name: 'unit administrator, newest first', body: { view: 'law', limit: 20 }, scoped: true },
  {
    name: 'unit administrator, audio, last 7 days',
    body: { view: 'law', media_type: 2, recorded_start: iso(NOW - 7 * day), limit: 20 },
    scoped: true,
  },
];

async function page(body: Record<string, unknown>, asUnitAdmin = false): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${base}/rest/media/media/get`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(asUnitAdmin ? scoped : session).headers },
    body: JSON.stringify(body),
  });
  const env = (await res.json()) as { code: number; msg: string; data: { total: number; capped: number } };
  const ms = performance.now() - t0;
  if (env.code !== 200) throw new Error(`mediaList ${JSON.stringify(body)}: ${env.code} ${env.msg}`);
  return ms;
}

const p = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

async function measure(): Promise<Map<string, number[]>> {
  const out = new Map<string, number[]>(requests.map((r) => [r.name, []]));
  for (const r of requests) await page(r.body); // warm-up
  for (let round = 0; round < ROUNDS; round++) for (const r of requests) out.get(r.name)!.push(await page(r.body));
  return out;
}

async function seed(n: number) {
  const unitCase = `CASE (i % ${units.length}) ${units.map((u, k) => `WHEN ${k} THEN ${u}`).join(' ')} END`;
  const deviceCase = devices.length
    ? `CASE (i % ${devices.length}) ${devices.map((d, k) => `WHEN ${k} THEN ${d}`).join(' ')} END`
    : 'NULL';
  const cols =
    'sha256, size, media_type, mime, ext, file_name, title, source, unit_id, device_id, recorded_at, uploaded_at, playable, flg, linked, deleted_at, duration, width, height';
  if (isPostgres(db as unknown as Kysely<unknown>)) {
    const ts = (expr: string) => `to_char((${expr}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    await sql
      .raw(
        `INSERT INTO evidence_items (${cols})
         SELECT lpad(to_hex(i), 64, '0'), 1000000 + i, (i % 3) + 1, 'video/mp4', 'mp4', 'clip-' || i || '.mp4', 'clip-' || i,
           'device', ${unitCase}, ${deviceCase},
           ${ts(`timestamptz '2026-11-27 00:00:00+00' - (i * 125) * interval '1 second'`)},
           ${ts(`timestamptz '2026-11-27 00:00:00+00' - (i * 125 - 600) * interval '1 second'`)},
           'ready', CASE WHEN i % 20 = 0 THEN 1 ELSE 0 END, CASE WHEN i % 10 = 0 THEN 1 ELSE 0 END,
           CASE WHEN i % 50 = 0 THEN '2026-11-26T00:00:00.000Z' ELSE NULL END, 12.5, 640, 360
         FROM generate_series(1, ${n}) AS s(i)`,
      )
      .execute(db);
    await sql.raw('ANALYZE evidence_items').execute(db);
  } else {
    const ts = (secondsAgo: string) =>
      `strftime('%Y-%m-%dT%H:%M:%fZ', '2026-11-27 00:00:00', printf('%d seconds', -(${secondsAgo})))`;
    await sql
      .raw(
        `INSERT INTO evidence_items (${cols})
         WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < ${n})
         SELECT printf('%064x', i), 1000000 + i, (i % 3) + 1, 'video/mp4', 'mp4', 'clip-' || i || '.mp4', 'clip-' || i,
           'device', ${unitCase}, ${deviceCase}, ${ts('i * 125')}, ${ts('i * 125 - 600')},
           'ready', CASE WHEN i % 20 = 0 THEN 1 ELSE 0 END, CASE WHEN i % 10 = 0 THEN 1 ELSE 0 END,
           CASE WHEN i % 50 = 0 THEN '2026-11-26T00:00:00.000Z' ELSE NULL END, 12.5, 640, 360
         FROM s`,
      )
      .execute(db);
    await sql.raw('ANALYZE').execute(db);
  }
}

const dialect = usingPostgres() ? 'PostgreSQL' : 'SQLite';
console.log(`evidence library page, ${dialect}, ${units.length} units, ${devices.length} devices, ${ROUNDS} rounds`);
const empty = await measure();
const t0 = performance.now();
await seed(ITEMS);
const count = Number(
  (await db.selectFrom('evidence_items').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow()).n,
);
console.log(`seeded ${count.toLocaleString('en-US')} items in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const full = await measure();

console.log('request | p50 ms | p95 ms | empty library p95 ms (anchor) | ratio | goal p95 <= 50 ms');
let all: number[] = [];
let allEmpty: number[] = [];
for (const r of requests) {
  const xs = full.get(r.name)!;
  const es = empty.get(r.name)!;
  all = all.concat(xs);
  allEmpty = allEmpty.concat(es);
  const met = p(xs, 0.95) <= 50 ? 'met' : 'NOT met';
  console.log(
    `${r.name} | ${p(xs, 0.5).toFixed(1)} | ${p(xs, 0.95).toFixed(1)} | ${p(es, 0.95).toFixed(1)} | ${(p(xs, 0.95) / p(es, 0.95)).toFixed(2)} | ${met}`,
  );
}
console.log(
  `all requests | ${p(all, 0.5).toFixed(1)} | ${p(all, 0.95).toFixed(1)} | ${p(allEmpty, 0.95).toFixed(1)} | ${(p(all, 0.95) / p(allEmpty, 0.95)).toFixed(2)} | ${p(all, 0.95) <= 50 ? 'met' : 'NOT met'}`,
);
await test.close();
