import { CallStatus, type CallNotice } from '@bwc/protocol';
import { describe, expect, it } from 'vitest';
import { incoming, nextCall, placing } from './callState';

const ME = 100;
const TERMINAL = 7;

function notice(extra: Partial<CallNotice>): CallNotice {
  return {
    callid: 42,
    demander: ME,
    extdemander: '9100',
    demander_name: 'Dispatcher',
    target: TERMINAL,
    exttarget: '97',
    target_name: 'Officer 7',
    call_type: 0,
    priority: 0,
    start: 1_000,
    answered: null,
    status: CallStatus.RINGING,
    ...extra,
  };
}

describe('call view', () => {
  const start = placing({ uid: TERMINAL, name: 'Officer 7' });

  it('follows its call from ringing through answered to the hang-up', () => {
    const ringing = nextCall(start, notice({}), ME);
    expect(ringing).toMatchObject({ phase: 'ringing', callid: 42 });
    const answered = nextCall(ringing, notice({ status: CallStatus.ANSWERED, answered: 2_000 }), ME);
    expect(answered).toMatchObject({ phase: 'answered', answeredAt: 2_000 });
    const ended = nextCall(answered, notice({ status: CallStatus.HANGUP, reason: 'hangup', by: TERMINAL }), ME);
    expect(ended).toMatchObject({ phase: 'ended', outcome: CallStatus.HANGUP, reason: 'hangup', by: TERMINAL });
    // an ended call stays ended
    expect(nextCall(ended, notice({ status: CallStatus.ANSWERED }), ME)).toBe(ended);
  });

  it('takes a refusal without a call id (unreachable) as the end of the call placed', () => {
    const ended = nextCall(start, notice({ callid: 0, status: CallStatus.UNREACHABLE, reason: 'offline' }), ME);
    expect(ended).toMatchObject({ phase: 'ended', callid: 0, outcome: CallStatus.UNREACHABLE, reason: 'offline' });
  });

  it('ignores the notices of other calls and other users', () => {
    const ringing = nextCall(start, notice({}), ME);
    expect(nextCall(ringing, notice({ callid: 43, status: CallStatus.HANGUP }), ME)).toBe(ringing);
    expect(nextCall(start, notice({ target: 8 }), ME)).toBe(start);
    expect(nextCall(start, notice({ demander: 5, target: 8 }), ME)).toBe(start);
  });

  it('answers a call ringing for this console', () => {
    const view = incoming(notice({ demander: TERMINAL, demander_name: 'Officer 7', target: ME }));
    expect(view).toMatchObject({ phase: 'incoming', callid: 42, peer: { uid: TERMINAL, name: 'Officer 7' } });
    const up = nextCall(view, notice({ demander: TERMINAL, target: ME, status: CallStatus.ANSWERED, answered: 5 }), ME);
    expect(up.phase).toBe('answered');
  });
});
