import { ImTargetType, ImType, type ImMessage } from '@bwc/protocol';

/** The console's uid in the message tests. */
export const TEST_ME = 100;

/** A message from officer 7 to the console (test fixture): `over` changes any field. */
export function testMessage(msgId: number, over: Partial<ImMessage> = {}): ImMessage {
  return {
    msg_id: msgId,
    from: 7,
    extfrom: '97',
    from_name: 'Officer 7',
    target: TEST_ME,
    exttarget: '9100',
    target_type: ImTargetType.USER,
    im_type: ImType.TEXT,
    content: `text ${msgId}`,
    time: '2026-11-24T10:00:00.000Z',
    filename: '',
    size: 0,
    fid: '',
    ourl: '',
    surl: '',
    ...over,
  };
}
