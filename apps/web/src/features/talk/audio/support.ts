/**
 * What this browser lets the talk panel do. Talking needs the microphone (a secure context: HTTPS
 * or localhost, else `navigator.mediaDevices` is absent) and a WebCodecs Opus encoder; hearing
 * needs a WebCodecs decoder and Web Audio. Each lack has its own message (talk catalogue), so a
 * dispatcher learns what to change instead of pressing a button that does nothing.
 */
export type TalkLack = 'insecure' | 'noEncoder' | 'noDecoder';

export interface TalkSupport {
  canTalk: boolean;
  canHear: boolean;
  /** why talking or hearing is not possible, most important first */
  lacks: TalkLack[];
}

export function talkSupport(scope: typeof globalThis = globalThis): TalkSupport {
  const lacks: TalkLack[] = [];
  const secure = scope.isSecureContext !== false && Boolean(scope.navigator?.mediaDevices?.getUserMedia);
  if (!secure) lacks.push('insecure');
  if (typeof scope.AudioEncoder !== 'function') lacks.push('noEncoder');
  const canHear = typeof scope.AudioDecoder === 'function' && typeof scope.AudioContext === 'function';
  if (!canHear) lacks.push('noDecoder');
  return { canTalk: secure && !lacks.includes('noEncoder'), canHear, lacks };
}
