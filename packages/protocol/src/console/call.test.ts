import { describe, expect, it } from 'vitest';
import { CallRequest, CallStatus, CallStatusRequest, DtmfRequest } from './call';
import { AudioKind, decodeAudioFrame, encodeAudioFrame } from './talk';

describe('call payloads', () => {
  it('req_call needs a target; priority and call type default', () => {
    expect(CallRequest.parse({ target: '12' })).toMatchObject({ target: 12, priority: 0, call_type: 0 });
    expect(CallRequest.parse({ exttarget: '250001', priority: 3 })).toMatchObject({ exttarget: '250001' });
    const missing = CallRequest.safeParse({ priority: 1 });
    expect(missing.success).toBe(false);
    expect(missing.error?.issues[0]).toMatchObject({ path: ['target'], message: 'validation.required' });
    expect(CallRequest.safeParse({ target: 1, call_type: 2 }).success).toBe(false);
  });

  it('req_call_status takes answer, hang up or reject', () => {
    for (const status of [CallStatus.ANSWERED, CallStatus.HANGUP, CallStatus.REJECTED])
      expect(CallStatusRequest.parse({ status: String(status) }).status).toBe(status);
    for (const status of [CallStatus.RINGING, CallStatus.TIMEOUT, 0, 'x'])
      expect(CallStatusRequest.safeParse({ status }).success).toBe(false);
  });

  it('req_dtmf takes 1-16 keys of a phone pad', () => {
    expect(DtmfRequest.parse({ value: 5 }).value).toBe('5');
    expect(DtmfRequest.parse({ value: '0123456789*#ABCD' }).value).toHaveLength(16);
    for (const value of ['', '12x', '1'.repeat(17), undefined])
      expect(DtmfRequest.safeParse({ value }).success).toBe(false);
  });

  it('a call frame decodes as a call frame only', () => {
    const frame = encodeAudioFrame({
      kind: AudioKind.CALL,
      flags: 0,
      tgid: 123_456,
      uid: 0,
      seq: 1,
      clock: 0,
      opus: Uint8Array.of(0xfc, 1),
    });
    expect(decodeAudioFrame(frame)).toBeNull();
    expect(decodeAudioFrame(frame, AudioKind.CALL)).toMatchObject({ kind: AudioKind.CALL, tgid: 123_456 });
  });
});
