import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AlarmSoundPlayer } from './alarmSound';

/**
 * A browser's Web Audio as far as the player uses it. `allowed` is the autoplay policy: a context
 * starts 'suspended' and resume() only takes while it is true (a user gesture happened).
 */
class FakeContext {
  static allowed = false;
  static instances: FakeContext[] = [];
  state: 'suspended' | 'running' | 'closed' = FakeContext.allowed ? 'running' : 'suspended';
  sampleRate = 8000;
  destination = {};
  sources: { started: boolean; stopped: boolean; loop: boolean }[] = [];
  constructor() {
    FakeContext.instances.push(this);
  }
  resume() {
    if (FakeContext.allowed) this.state = 'running';
    return Promise.resolve();
  }
  close() {
    this.state = 'closed';
    return Promise.resolve();
  }
  createBuffer(_channels: number, length: number) {
    const data = new Float32Array(length);
    return { getChannelData: () => data };
  }
  createBufferSource() {
    const source = {
      started: false,
      stopped: false,
      loop: false,
      buffer: null as unknown,
      connect: () => undefined,
      disconnect: () => undefined,
      start() {
        source.started = true;
      },
      stop() {
        source.stopped = true;
      },
    };
    this.sources.push(source);
    return source;
  }
}

/** HTMLAudioElement: play() answers what the test decides. */
class FakeAudio {
  static instances: FakeAudio[] = [];
  static outcome: 'play' | 'notAllowed' | 'broken' = 'play';
  loop = false;
  currentTime = 0;
  playing = false;
  constructor(readonly src: string) {
    FakeAudio.instances.push(this);
  }
  play() {
    if (FakeAudio.outcome === 'notAllowed') return Promise.reject(new DOMException('no gesture', 'NotAllowedError'));
    if (FakeAudio.outcome === 'broken') return Promise.reject(new DOMException('no source', 'NotSupportedError'));
    this.playing = true;
    return Promise.resolve();
  }
  pause() {
    this.playing = false;
  }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('alarm sound player', () => {
  let player: AlarmSoundPlayer;

  beforeEach(() => {
    FakeContext.allowed = false;
    FakeContext.instances = [];
    FakeAudio.instances = [];
    FakeAudio.outcome = 'play';
    vi.stubGlobal('AudioContext', FakeContext);
    vi.stubGlobal('Audio', FakeAudio);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    player?.dispose();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('before a user gesture it is locked, and an alarm that wants to sound is reported as missed', () => {
    player = new AlarmSoundPlayer();
    expect(player.status()).toEqual({ access: 'locked', missed: false });
    player.start();
    expect(player.status()).toEqual({ access: 'locked', missed: true });
    expect(FakeContext.instances[0]!.sources).toHaveLength(0);
  });

  it('a click enables it; the alarm still ringing then sounds (built-in siren, looped) until stop', async () => {
    player = new AlarmSoundPlayer();
    const seen: string[] = [];
    player.subscribe(() => seen.push(`${player.status().access}/${player.status().missed}`));
    player.start();
    FakeContext.allowed = true;
    document.body.dispatchEvent(new Event('pointerdown', { bubbles: true }));
    await flush();
    expect(player.status()).toEqual({ access: 'enabled', missed: false });
    const [siren] = FakeContext.instances[0]!.sources;
    expect(siren).toMatchObject({ started: true, loop: true, stopped: false });
    player.stop();
    expect(siren!.stopped).toBe(true);
    expect(seen).toEqual(['locked/true', 'enabled/false']);
  });

  it('a click while the browser still refuses keeps it locked', async () => {
    player = new AlarmSoundPlayer();
    await player.enable();
    expect(player.status().access).toBe('locked');
  });

  it('where the browser allows sound from the start, no gesture is needed', () => {
    FakeContext.allowed = true;
    player = new AlarmSoundPlayer();
    expect(player.status().access).toBe('enabled');
    player.start();
    expect(FakeContext.instances[0]!.sources[0]!.started).toBe(true);
  });

  it('plays the configured sound (sos_alarm_audio) in a loop', () => {
    FakeContext.allowed = true;
    player = new AlarmSoundPlayer();
    player.setSource('/sounds/sos.mp3');
    player.start();
    expect(FakeAudio.instances.map((a) => [a.src, a.loop, a.playing])).toEqual([['/sounds/sos.mp3', true, true]]);
    expect(FakeContext.instances[0]!.sources).toHaveLength(0);
    player.stop();
    expect(FakeAudio.instances[0]!.playing).toBe(false);
  });

  it('a configured sound the browser refuses shows the lock again; a broken one falls back to the siren', async () => {
    FakeContext.allowed = true;
    player = new AlarmSoundPlayer();
    player.setSource('/sounds/sos.mp3');
    FakeAudio.outcome = 'notAllowed';
    player.start();
    await flush();
    expect(player.status()).toEqual({ access: 'locked', missed: true });

    player.stop();
    player.dispose();
    player = new AlarmSoundPlayer();
    player.setSource('/sounds/missing.mp3');
    FakeAudio.outcome = 'broken';
    player.start();
    await flush();
    expect(player.status().access).toBe('enabled');
    expect(FakeContext.instances.at(-1)!.sources[0]!.started).toBe(true);
  });

  it('without Web Audio it says so instead of staying silent', () => {
    vi.stubGlobal('AudioContext', undefined);
    player = new AlarmSoundPlayer();
    expect(player.status().access).toBe('unsupported');
  });
});
