import { callsOf } from '../call/call.service';
import { requireTerminals } from '../directory';
import { defineHandler, type ConsoleHandler } from '../handler';

/**
 * Voice calls (issue 14 section 4, call/): a call to a terminal the caller may see (by target, or
 * exttarget its cluster number), its answer, rejection or hang-up, DTMF digits during it. The
 * codes are fire-and-forget in the SDK: each outcome also comes as notice_call_status (call/).
 */
export const callHandlers: ConsoleHandler[] = [
  defineHandler({
    code: 'req_call',
    handler: async ({ body, login, db, service }) => {
      const byUid = body.target !== undefined;
      const [callee] = await requireTerminals(
        db,
        login,
        byUid ? [body.target!] : [],
        !byUid && body.exttarget !== undefined ? [body.exttarget] : [],
      );
      return callsOf(service).place(login, callee!, body);
    },
  }),
  defineHandler({
    code: 'req_call_status',
    handler: ({ body, login, service }) => callsOf(service).set(login, body.callid, body.status),
  }),
  defineHandler({
    code: 'req_dtmf',
    handler: ({ body, login, service }) => callsOf(service).dtmf(login, body),
  }),
];
