/** Signalling tones of the talk panel (short Web Audio beeps, like a radio's). */
export type ToneKind = 'grant' | 'busy';

/** Each tone as beeps: frequency (Hz), start and length (s). */
const TONES: Record<ToneKind, { hz: number; at: number; length: number }[]> = {
  // the floor is yours: two short rising beeps
  grant: [
    { hz: 880, at: 0, length: 0.07 },
    { hz: 1320, at: 0.1, length: 0.07 },
  ],
  // refused or taken: three low pulses
  busy: [
    { hz: 425, at: 0, length: 0.12 },
    { hz: 425, at: 0.2, length: 0.12 },
    { hz: 425, at: 0.4, length: 0.12 },
  ],
};

const VOLUME = 0.15;
/** fade in and out of each beep (s): no click */
const RAMP = 0.005;

export function playTone(context: BaseAudioContext, kind: ToneKind): void {
  const start = context.currentTime + 0.01;
  for (const beep of TONES[kind]) {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.frequency.value = beep.hz;
    const from = start + beep.at;
    const to = from + beep.length;
    gain.gain.setValueAtTime(0, from);
    gain.gain.linearRampToValueAtTime(VOLUME, from + RAMP);
    gain.gain.setValueAtTime(VOLUME, to - RAMP);
    gain.gain.linearRampToValueAtTime(0, to);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(from);
    oscillator.stop(to);
  }
}
