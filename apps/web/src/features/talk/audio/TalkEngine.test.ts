import { AudioKind, encodeAudioFrame } from '@bwc/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TalkEngine, type TalkStats } from './TalkEngine';

const RATE = 48_000;
const tone = (hz: number) =>
  Float32Array.from({ length: 960 }, (_, i) => 0.4 * Math.sin((2 * Math.PI * hz * i) / RATE));

/**
 * A browser scope whose Opus decoder "decodes" a packet's first byte into a tone of that many
 * times 100 Hz (at once, or when `flush` is called: a decoder slower than the frames), and whose
 * audio output records what was scheduled when.
 */
function fakeScope({ slowDecoder = false } = {}) {
  const waiting: (() => void)[] = [];
  const flush = () => waiting.splice(0).forEach((output) => output());
  const scheduled: number[] = [];
  const context = {
    state: 'running',
    currentTime: 10,
    sampleRate: RATE,
    destination: {},
    resume: vi.fn(async () => undefined),
    close: vi.fn(async () => undefined),
    createBuffer: (_channels: number, length: number) => ({ length, copyToChannel: vi.fn() }),
    createBufferSource: () => ({ buffer: null, connect: vi.fn(), start: (at: number) => scheduled.push(at) }),
  };
  const decoders: { configured: unknown; closed: boolean }[] = [];
  class AudioDecoder {
    state = 'unconfigured';
    private readonly record = { configured: null as unknown, closed: false };
    constructor(private readonly init: { output: (data: unknown) => void }) {
      decoders.push(this.record);
    }
    configure(config: unknown) {
      this.state = 'configured';
      this.record.configured = config;
    }
    decode(chunk: { timestamp: number; data: Uint8Array }) {
      const pcm = tone(chunk.data[0]! * 100);
      const output = () =>
        this.init.output({
          timestamp: chunk.timestamp,
          numberOfFrames: pcm.length,
          sampleRate: RATE,
          copyTo: (target: Float32Array) => target.set(pcm),
          close: vi.fn(),
        });
      if (slowDecoder) waiting.push(output);
      else output();
    }
    close() {
      this.state = 'closed';
      this.record.closed = true;
    }
  }
  class EncodedAudioChunk {
    readonly timestamp: number;
    readonly data: Uint8Array;
    constructor(init: { timestamp: number; data: Uint8Array }) {
      this.timestamp = init.timestamp;
      this.data = init.data;
    }
  }
  const scope = {
    isSecureContext: true,
    navigator: { mediaDevices: { getUserMedia: vi.fn() } },
    performance,
    AudioEncoder: class {},
    AudioDecoder,
    EncodedAudioChunk,
    AudioContext: class {
      constructor() {
        return context;
      }
    },
  } as unknown as typeof globalThis & { __bwcTalkStats?: Partial<TalkStats> };
  return { scope, context, scheduled, decoders, flush };
}

function fakeSdk() {
  let listener: (bytes: Uint8Array) => void = () => undefined;
  return {
    sdk: {
      sendBinary: vi.fn(() => true),
      onBinary: (l: (bytes: Uint8Array) => void) => {
        listener = l;
        return () => (listener = () => undefined);
      },
    },
    receive: (tgid: number, uid: number, seq: number, hundredsHz: number) =>
      listener(
        encodeAudioFrame({
          kind: AudioKind.GROUP,
          flags: 0,
          tgid,
          uid,
          seq,
          clock: 0,
          opus: Uint8Array.of(hundredsHz, 1, 2),
        }),
      ),
  };
}

afterEach(() => vi.restoreAllMocks());

describe('talk engine, receiving', () => {
  it('decodes the group frames, plays them back to back after the jitter delay and counts them for tests', () => {
    const { scope, scheduled, decoders } = fakeScope();
    scope.__bwcTalkStats = {};
    const { sdk, receive } = fakeSdk();
    const engine = new TalkEngine(sdk, scope);
    engine.listen(5);
    for (let seq = 0; seq < 3; seq++) receive(5, 7, seq, 10);
    expect(decoders.map((d) => d.configured)).toEqual([{ codec: 'opus', sampleRate: RATE, numberOfChannels: 1 }]);
    // another group's frame is counted, not played
    receive(6, 8, 0, 4);
    // 60 ms jitter delay, then one 20 ms frame after the other (AudioContext seconds)
    expect(scheduled.map((s) => Math.round(s * 1000))).toEqual([10_060, 10_080, 10_100]);
    expect(engine.stats).toMatchObject({
      framesReceived: 4,
      framesDecoded: 3,
      framesPlayed: 3,
      talker: 7,
      jitterMs: 60,
    });
    expect(engine.stats.tone1k).toBeGreaterThan(0.99);
    expect(engine.stats.dominantHz).toBe(1000);
    expect(scope.__bwcTalkStats).toMatchObject({ framesReceived: 4, framesPlayed: 3, dominantHz: 1000 });
    expect(engine.level()).toBeGreaterThan(0);
  });

  it('places a frame when the decoder gives it back: a slow decoder delays the burst, it does not cut it', () => {
    const { scope, scheduled, context, flush } = fakeScope({ slowDecoder: true });
    const { sdk, receive } = fakeSdk();
    const engine = new TalkEngine(sdk, scope);
    engine.listen(5);
    for (let seq = 0; seq < 6; seq++) receive(5, 7, seq, 10);
    // the page was busy for longer than the jitter delay before the decoder's answers ran
    context.currentTime = 10.2;
    flush();
    expect(scheduled.map((s) => Math.round(s * 1000))).toEqual([10_260, 10_280, 10_300, 10_320, 10_340, 10_360]);
    expect(engine.stats).toMatchObject({ framesDecoded: 6, framesPlayed: 6, framesLate: 0 });
  });

  it('does not play what the decoder gives back of a talker after another began', () => {
    const { scope, scheduled, flush } = fakeScope({ slowDecoder: true });
    const { sdk, receive } = fakeSdk();
    const engine = new TalkEngine(sdk, scope);
    engine.listen(5);
    receive(5, 7, 0, 10);
    receive(5, 8, 0, 4);
    flush();
    expect(scheduled).toHaveLength(1);
    expect(engine.stats).toMatchObject({ talker: 8, framesDecoded: 2, framesPlayed: 1 });
  });

  it('starts a new decoder for a new talker, whose sequence starts over', () => {
    const { scope, scheduled, decoders, context } = fakeScope();
    const { sdk, receive } = fakeSdk();
    const engine = new TalkEngine(sdk, scope);
    engine.listen(5);
    for (let seq = 0; seq < 3; seq++) receive(5, 7, seq, 10);
    context.currentTime = 10.1;
    receive(5, 8, 0, 4);
    expect(decoders.length).toBe(2);
    expect(decoders[0]!.closed).toBe(true);
    expect(scheduled.length).toBe(4);
    expect(engine.stats.talker).toBe(8);
    expect(engine.stats.dominantHz).toBe(0); // no test object: no tone figures
    engine.close();
    receive(5, 8, 1, 4);
    expect(scheduled.length).toBe(4);
  });

  it('counts frames but schedules nothing while the output is suspended', () => {
    const { scope, scheduled, context } = fakeScope();
    context.state = 'suspended';
    const { sdk, receive } = fakeSdk();
    const engine = new TalkEngine(sdk, scope);
    engine.listen(5);
    receive(5, 7, 0, 10);
    expect(engine.stats.framesDecoded).toBe(1);
    expect(scheduled).toEqual([]);
    expect(context.resume).toHaveBeenCalled();
  });
});
