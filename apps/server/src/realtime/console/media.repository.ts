import type { Insertable } from 'kysely';
import type { Db } from '../../db/connection';
import type { ConsoleMediaRequestTable } from './console.tables';
import './console.tables';

/** SQL of the media requests kept until their media lands (handlers/media.ts). */

export async function insertMediaRequest(db: Db, row: Insertable<ConsoleMediaRequestTable>): Promise<number> {
  const { id } = await db.insertInto('console_media_requests').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}
