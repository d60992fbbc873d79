import { sql, type RawBuilder } from 'kysely';

/**
 * Case-insensitive "column contains keyword" that behaves the same on SQLite and PostgreSQL
 * (LIKE is case-sensitive on one and not the other); %, _ and \ in the keyword match literally.
 */
export function contains(column: string, keyword: string): RawBuilder<boolean> {
  const pattern = `%${keyword.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<boolean>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`;
}

/** Offset of a 1-based page. */
export const offsetOf = (page: number, limit: number): number => (page - 1) * limit;

/** operation_log.target of a bulk action: the ids, cut to the column's 255 characters. */
export const auditIds = (ids: number[]): string => ids.join(',').slice(0, 255);
