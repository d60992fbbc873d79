import type { PushMessage } from '@bwc/protocol';

/** A message of the message push tests (test fixture). */
export const testMessage: PushMessage = {
  id: 7,
  title: 'Morning shift',
  content: 'Be at the east gate by eight',
  unit_id: 1,
  unitname: 'North station',
  author: 'Desk',
  create_time: '2026-11-24T07:00:00Z',
  update_time: '2026-11-24T07:00:00Z',
  send_count: 0,
  last_send: null,
};
