import { ALARM_SOUND_DEFAULT_MS, ALARM_SOUND_DELAY_MS } from '@bwc/protocol';

/** What actually makes the noise (browser audio in the widget, a recorder in tests). */
export interface SoundOutput {
  start(): void;
  stop(): void;
}

/** idle: silent; pending: triggered, waiting ALARM_SOUND_DELAY_MS; ringing: the sound plays (the bell is active). */
export type RingerState = 'idle' | 'pending' | 'ringing';

/** How long one alarm rings: sos_alarm_time seconds x 1000, ALARM_SOUND_DEFAULT_MS when not configured. */
export function soundDurationMs(sosAlarmTime: number | undefined): number {
  return sosAlarmTime !== undefined && Number.isFinite(sosAlarmTime) && sosAlarmTime > 0
    ? sosAlarmTime * 1000
    : ALARM_SOUND_DEFAULT_MS;
}

/**
 * Sound timing of the bell (spec part 1 sections 4 and 9): the sound starts ALARM_SOUND_DELAY_MS
 * after the trigger and stops after the configured duration or when the live view opens. A new
 * trigger while pending or ringing keeps one sound going and restarts the duration.
 */
export class AlarmRinger {
  private startTimer: ReturnType<typeof setTimeout> | undefined;
  private stopTimer: ReturnType<typeof setTimeout> | undefined;
  private current: RingerState = 'idle';

  constructor(
    private readonly output: SoundOutput,
    private readonly onChange: (state: RingerState) => void = () => {},
  ) {}

  get state(): RingerState {
    return this.current;
  }

  /** A new critical alarm arrived. */
  trigger(durationMs: number): void {
    clearTimeout(this.stopTimer);
    if (this.current === 'idle') {
      this.set('pending');
      this.startTimer = setTimeout(() => {
        this.startTimer = undefined;
        this.set('ringing');
        this.output.start();
      }, ALARM_SOUND_DELAY_MS);
    }
    this.stopTimer = setTimeout(() => this.silence(), ALARM_SOUND_DELAY_MS + durationMs);
  }

  /** The live view opened: silence now, also a sound still waiting for its delay. */
  liveOpened(): void {
    this.silence();
  }

  /** Unmount: silent, no timer left. */
  dispose(): void {
    this.silence();
  }

  private silence(): void {
    clearTimeout(this.startTimer);
    clearTimeout(this.stopTimer);
    this.startTimer = undefined;
    this.stopTimer = undefined;
    const wasRinging = this.current === 'ringing';
    this.set('idle');
    if (wasRinging) this.output.stop();
  }

  private set(state: RingerState): void {
    if (state === this.current) return;
    this.current = state;
    this.onChange(state);
  }
}
