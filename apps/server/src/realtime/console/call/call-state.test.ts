import { CallStatus } from '@bwc/protocol';
import { describe, expect, it } from 'vitest';
import { next, presentCall, type CallState } from './call-state';

const ringing: CallState = {
  callid: 7,
  caller: { uid: 100_001, ext_id: 'itrunk_desk', name: 'desk' },
  callee: { uid: 5, ext_id: '250001', name: 'cam' },
  call_type: 0,
  priority: 0,
  start: 1_000,
  answered: null,
  status: CallStatus.RINGING,
  unit_id: 3,
};
const answered: CallState = { ...ringing, status: CallStatus.ANSWERED, answered: 2_000 };
const state = (t: ReturnType<typeof next>) => ('state' in t ? t.state : null);

describe('call state machine', () => {
  it('the callee answers or rejects a ringing call; the caller may not', () => {
    expect(state(next(ringing, { kind: 'answer', uid: 5, now: 2_000 }))).toMatchObject({
      status: CallStatus.ANSWERED,
      answered: 2_000,
    });
    expect(state(next(ringing, { kind: 'reject', uid: 5, now: 2_000 }))).toMatchObject({
      status: CallStatus.REJECTED,
      reason: 'declined',
      by: 5,
    });
    expect(next(ringing, { kind: 'answer', uid: 100_001, now: 2_000 })).toEqual({
      error: 'console.call.notAnswerable',
    });
    expect(next(answered, { kind: 'answer', uid: 5, now: 3_000 })).toEqual({ error: 'console.call.notAnswerable' });
  });

  it('a hang-up: cancelled by a ringing caller, declined by a ringing callee, hangup once answered', () => {
    expect(state(next(ringing, { kind: 'hangup', uid: 100_001, now: 0 }))).toMatchObject({
      status: CallStatus.HANGUP,
      reason: 'cancelled',
    });
    expect(state(next(ringing, { kind: 'hangup', uid: 5, now: 0 }))).toMatchObject({
      status: CallStatus.REJECTED,
      reason: 'declined',
    });
    expect(state(next(answered, { kind: 'hangup', uid: 5, now: 0 }))).toMatchObject({
      status: CallStatus.HANGUP,
      reason: 'hangup',
      by: 5,
    });
  });

  it('the ring timeout ends only a ringing call; a disconnect ends any', () => {
    expect(state(next(ringing, { kind: 'timeout', now: 0 }))).toMatchObject({
      status: CallStatus.TIMEOUT,
      reason: 'no_answer',
    });
    expect(next(answered, { kind: 'timeout', now: 0 })).toEqual({ state: null });
    expect(state(next(answered, { kind: 'disconnect', uid: 100_001, now: 0 }))).toMatchObject({
      status: CallStatus.HANGUP,
      reason: 'disconnected',
      by: 100_001,
    });
  });

  it('presents the spec fields', () => {
    expect(presentCall(answered)).toEqual({
      callid: 7,
      demander: 100_001,
      extdemander: 'itrunk_desk',
      demander_name: 'desk',
      target: 5,
      exttarget: '250001',
      target_name: 'cam',
      call_type: 0,
      priority: 0,
      start: 1_000,
      answered: 2_000,
      status: CallStatus.ANSWERED,
    });
  });
});
