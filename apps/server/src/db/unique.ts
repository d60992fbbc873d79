/**
 * Whether a database error is a unique-constraint violation (SQLite SQLITE_CONSTRAINT_UNIQUE,
 * PostgreSQL 23505). Services check uniqueness first for a clear message; this covers the race
 * of two requests passing that check at once, so that the loser gets the same message, not a 500.
 */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** Run `work`; a unique violation becomes `conflict()`. */
export async function onUniqueViolation<T>(work: () => Promise<T>, conflict: () => Error): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw isUniqueViolation(err) ? conflict() : err;
  }
}
