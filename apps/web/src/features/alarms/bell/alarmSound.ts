import type { SoundOutput } from './alarmRinger';

/**
 * enabled: the browser lets the page play sound; locked: it refuses until a user gesture (autoplay
 * policy); unsupported: no Web Audio at all.
 */
export type SoundAccess = 'enabled' | 'locked' | 'unsupported';

export interface SoundStatus {
  access: SoundAccess;
  /** an alarm wanted to sound while the browser refused: the banner says so loudly */
  missed: boolean;
}

type AudioContextClass = typeof AudioContext;

function audioContextClass(): AudioContextClass | undefined {
  if (typeof window === 'undefined') return undefined;
  return window.AudioContext ?? (window as unknown as { webkitAudioContext?: AudioContextClass }).webkitAudioContext;
}

/** Built-in alarm: a two-tone siren (960 Hz / 770 Hz, 0.4 s each), one period to loop. */
function sirenBuffer(context: AudioContext): AudioBuffer {
  const rate = context.sampleRate;
  const half = Math.round(rate * 0.4);
  const buffer = context.createBuffer(1, half * 2, rate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i += 1) {
    const frequency = i < half ? 960 : 770;
    const inHalf = i % half;
    // 10 ms fade at each tone edge: no clicks
    const edge = Math.min(1, inHalf / (rate * 0.01), (half - inHalf) / (rate * 0.01));
    data[i] = Math.sin((2 * Math.PI * frequency * i) / rate) * 0.35 * edge;
  }
  return buffer;
}

/**
 * The bell's sound in the browser. The configured sound (alarm settings sos_alarm_audio, a path or
 * URL) plays in a loop through an audio element; without one, or when it cannot be loaded, the
 * built-in siren plays through Web Audio. Browsers refuse sound before the first user gesture:
 * that state is published (`status`) so that the widget shows a banner to enable it, and any click
 * or key press on the page enables it.
 */
export class AlarmSoundPlayer implements SoundOutput {
  private context: AudioContext | null = null;
  private siren: AudioBufferSourceNode | null = null;
  private element: HTMLAudioElement | null = null;
  private url = '';
  private wanted = false;
  private current: SoundStatus;
  private readonly listeners = new Set<() => void>();
  private readonly onGesture = () => void this.enable();

  constructor() {
    this.current = { access: audioContextClass() ? 'locked' : 'unsupported', missed: false };
    if (this.current.access === 'locked') {
      document.addEventListener('pointerdown', this.onGesture, true);
      document.addEventListener('keydown', this.onGesture, true);
      // some browsers allow sound without a gesture (site engagement, kiosk policy): ask the context
      this.openContext();
    }
  }

  /** For useSyncExternalStore. */
  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly status = (): SoundStatus => this.current;

  /** Configured sound (sos_alarm_audio); '' is the built-in siren. */
  setSource(url: string): void {
    if (url === this.url) return;
    this.stopOutput();
    this.url = url;
    this.element = null;
    if (this.wanted) this.play();
  }

  start(): void {
    this.wanted = true;
    this.play();
  }

  stop(): void {
    this.wanted = false;
    this.stopOutput();
    this.update({ missed: false });
  }

  /** Called from a user gesture (the banner's button, any click): lets the page sound. */
  async enable(): Promise<void> {
    if (this.current.access !== 'locked') return;
    const context = this.openContext();
    if (!context) return;
    try {
      await context.resume();
    } catch {
      // still refused: the banner stays
    }
    if (context.state === 'running') this.unlocked();
  }

  dispose(): void {
    this.stop();
    document.removeEventListener('pointerdown', this.onGesture, true);
    document.removeEventListener('keydown', this.onGesture, true);
    this.listeners.clear();
    void this.context?.close().catch(() => undefined);
    this.context = null;
  }

  private openContext(): AudioContext | null {
    if (this.context) return this.context;
    const Context = audioContextClass();
    if (!Context) return null;
    this.context = new Context();
    if (this.context.state === 'running') this.unlocked();
    return this.context;
  }

  private unlocked(): void {
    document.removeEventListener('pointerdown', this.onGesture, true);
    document.removeEventListener('keydown', this.onGesture, true);
    this.update({ access: 'enabled', missed: false });
    if (this.wanted) this.play();
  }

  private play(): void {
    if (this.current.access !== 'enabled') {
      this.update({ missed: this.current.access === 'locked' });
      return;
    }
    if (this.url) this.playElement();
    else this.playSiren();
  }

  private playElement(): void {
    if (!this.element) {
      this.element = new Audio(this.url);
      this.element.loop = true;
    }
    const element = this.element;
    element.currentTime = 0;
    element.play().catch((error: unknown) => {
      if (!this.wanted || element !== this.element) return;
      if (error instanceof DOMException && error.name === 'NotAllowedError') {
        this.update({ access: 'locked', missed: true });
        document.addEventListener('pointerdown', this.onGesture, true);
        document.addEventListener('keydown', this.onGesture, true);
        return;
      }
      // the configured sound cannot be played (missing file, unknown format): the siren instead
      console.warn('alarm sound: cannot play the configured sound, using the built-in one', this.url, error);
      this.element = null;
      this.playSiren();
    });
  }

  private playSiren(): void {
    const context = this.context;
    if (!context || this.siren) return;
    const source = context.createBufferSource();
    source.buffer = sirenBuffer(context);
    source.loop = true;
    source.connect(context.destination);
    source.start();
    this.siren = source;
  }

  private stopOutput(): void {
    this.element?.pause();
    if (this.siren) {
      this.siren.stop();
      this.siren.disconnect();
      this.siren = null;
    }
  }

  private update(change: Partial<SoundStatus>): void {
    const next = { ...this.current, ...change };
    if (next.access === this.current.access && next.missed === this.current.missed) return;
    this.current = next;
    for (const listener of this.listeners) listener();
  }
}
