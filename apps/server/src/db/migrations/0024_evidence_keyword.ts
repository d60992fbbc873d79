import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../connection';

/**
 * Keyword search of the evidence library (title, description, file name, hostbody, incident number
 * contain the text) without reading every row: a trigram index. SQLite: an FTS5 table with the
 * trigram tokenizer over those columns, kept by triggers (external content: the rows stay in
 * evidence_items). PostgreSQL: a pg_trgm GIN index on the lower-cased columns joined, when the
 * extension can be created (a trusted extension: the database owner may); without it the search
 * still works, by reading the rows.
 */
const COLUMNS = ['title', 'description', 'file_name', 'hostbody', 'incident_no'] as const;

/** The text PostgreSQL indexes and the library's keyword filter compares (same expression). */
export const PG_KEYWORD_EXPRESSION = `lower(${COLUMNS.join(" || ' ' || ")})`;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    const { rows } = await sql<{ ok: boolean }>`
      select exists (select 1 from pg_available_extensions where name = 'pg_trgm')
        and (exists (select 1 from pg_extension where extname = 'pg_trgm')
             or has_database_privilege(current_database(), 'CREATE')) as ok`.execute(db);
    if (!rows[0]?.ok) return;
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql
      .raw(`create index evidence_items_keyword on evidence_items using gin ((${PG_KEYWORD_EXPRESSION}) gin_trgm_ops)`)
      .execute(db);
    return;
  }
  const cols = COLUMNS.join(', ');
  const values = (row: 'new' | 'old') => COLUMNS.map((c) => `${row}.${c}`).join(', ');
  await sql
    .raw(
      `create virtual table evidence_fts using fts5(${cols}, content='evidence_items', content_rowid='id', tokenize='trigram')`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger evidence_fts_insert after insert on evidence_items begin
         insert into evidence_fts(rowid, ${cols}) values (new.id, ${values('new')});
       end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger evidence_fts_delete after delete on evidence_items begin
         insert into evidence_fts(evidence_fts, rowid, ${cols}) values ('delete', old.id, ${values('old')});
       end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger evidence_fts_update after update of ${cols} on evidence_items begin
         insert into evidence_fts(evidence_fts, rowid, ${cols}) values ('delete', old.id, ${values('old')});
         insert into evidence_fts(rowid, ${cols}) values (new.id, ${values('new')});
       end`,
    )
    .execute(db);
  await sql.raw(`insert into evidence_fts(evidence_fts) values ('rebuild')`).execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    await sql`drop index if exists evidence_items_keyword`.execute(db);
    return;
  }
  for (const t of ['evidence_fts_insert', 'evidence_fts_delete', 'evidence_fts_update'])
    await sql.raw(`drop trigger if exists ${t}`).execute(db);
  await sql`drop table if exists evidence_fts`.execute(db);
}
