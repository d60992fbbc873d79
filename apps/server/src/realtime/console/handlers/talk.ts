import { UserType } from '@bwc/protocol';
import { ConsoleErrors } from '../errors';
import { groupsOfMember } from '../groups.repository';
import { visibleGroup } from '../groups.policy';
import { defineHandler, type ConsoleHandler } from '../handler';
import { sees, type Login } from '../login';
import { replayUrl } from '../talk/replay';
import { findRecord, listRecords, presentRecord, type RecordFilter } from '../talk/talk.repository';
import type { TalkRecordTable } from '../talk/talk.tables';
import { memberIds } from '../groups.repository';
import { talkOf } from '../talk/talk.service';
import type { Db } from '../../../db/connection';

/**
 * May `login` hear a record: a console one of its units (a group's burst also after a temporary
 * group is gone), a terminal a burst of its groups; a call, its parties too.
 */
async function mayHear(db: Db, login: Login, record: TalkRecordTable): Promise<boolean> {
  if (record.kind === 'call' && (record.uid === login.uid || record.peer_uid === login.uid)) return true;
  if (login.user_type === UserType.CONSOLE) return sees(login, record.unit_id);
  return record.kind === 'group' && (await memberIds(db, record.tgid)).includes(login.uid);
}

/** Group talk (issue 14): floor control and the recorded bursts and calls (talk/, call/). */
export const talkHandlers: ConsoleHandler[] = [
  defineHandler({
    code: 'req_ptt_on',
    handler: async ({ body, login, db, service }) => {
      const { group } = await visibleGroup(db, login, body.tgid);
      return talkOf(service).request(login, group, body.emergency ? 1 : 0);
    },
  }),
  defineHandler({
    code: 'req_ptt_off',
    handler: async ({ body, login, db, service }) => {
      const { group } = await visibleGroup(db, login, body.tgid);
      return talkOf(service).release(login, group);
    },
  }),
  defineHandler({
    code: 'req_ptt_release',
    handler: async ({ body, login, db, service }) => {
      const { group } = await visibleGroup(db, login, body.tgid);
      return talkOf(service).force(group);
    },
  }),
  defineHandler({
    code: 'req_ptt_records',
    handler: async ({ body, login, db }) => {
      let where: RecordFilter;
      if (body.tgid !== undefined) where = { tgid: (await visibleGroup(db, login, body.tgid)).group.id };
      else if (login.user_type === UserType.CONSOLE) where = { units: login.scope ? [...login.scope] : null };
      else where = { mine: { tgids: (await groupsOfMember(db, login.uid)).map((g) => g.id), party: login.uid } };
      if (body.kind) where.kind = body.kind;
      const { total, rows } = await listRecords(db, where, body.start, body.count);
      return { total, records: rows.map(presentRecord) };
    },
  }),
  defineHandler({
    code: 'req_ptt_replay',
    handler: async ({ body, login, db, service, after }) => {
      const row = await findRecord(db, body.refid);
      if (!row || row.tgid !== body.tgid || !(await mayHear(db, login, row)))
        throw ConsoleErrors.notFound('console.talk.recordNotFound', { refid: body.refid });
      const answer = { record: presentRecord(row), ...(await replayUrl(db, row.refid, login.uid)) };
      // the SDK calls back at once for this code: the address also comes as a notice
      after(() => service.notify({ uids: [login.uid] }, 'notice_ptt_replay', answer));
      return answer;
    },
  }),
];
