import { now, type Db } from '../../db/connection';

export async function getStoredLicence(db: Db): Promise<{ regist_code: string; registered_at: string } | undefined> {
  return db.selectFrom('licence').select(['regist_code', 'registered_at']).where('id', '=', 1).executeTakeFirst();
}

export async function storeLicence(db: Db, registCode: string, payloadJson: string): Promise<void> {
  const ts = now();
  await db
    .insertInto('licence')
    .values({ id: 1, regist_code: registCode, payload: payloadJson, registered_at: ts })
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({ regist_code: registCode, payload: payloadJson, registered_at: ts }),
    )
    .execute();
}
