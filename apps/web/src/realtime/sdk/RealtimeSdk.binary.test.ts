import { AudioKind, decodeAudioFrame, encodeAudioFrame } from '@bwc/protocol';
import { describe, expect, it, vi } from 'vitest';
import { FakeSocket } from './fakeSocket';
import { SdkLogger } from './log';
import { BINARY_BACKLOG_MAX_BYTES, RealtimeSdk } from './RealtimeSdk';

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

/** A fake socket that keeps binary frames apart from the JSON ones and has a send backlog. */
class BinarySocket extends FakeSocket {
  binaryType = 'blob';
  bufferedAmount = 0;
  binary: Uint8Array[] = [];
  override send(data: string | Uint8Array) {
    if (typeof data === 'string') super.send(data);
    else this.binary.push(data);
  }
  receiveBinary(data: unknown) {
    this.onmessage?.({ data });
  }
}

function setup() {
  const sockets: BinarySocket[] = [];
  const logger = new SdkLogger({ sink: silent, document: null });
  const warn = vi.spyOn(logger, 'warn');
  const sdk = new RealtimeSdk({
    createSocket: (url) => {
      const socket = new BinarySocket(url);
      sockets.push(socket);
      return socket;
    },
    logger,
    location: { protocol: 'http:', host: 'console.test:8080', hostname: 'console.test' },
    watchConnectivity: () => () => undefined,
  });
  // connect without a login: the binary path does not care, the server decides
  sdk.init({ connect: true, ip: 'console.test', port: 9080 });
  return { sdk, socket: () => sockets[sockets.length - 1]!, warn };
}

const frame = (seq: number) =>
  encodeAudioFrame({
    kind: AudioKind.GROUP,
    flags: 0,
    tgid: 7,
    uid: 0,
    seq,
    clock: 123,
    opus: new Uint8Array([0xf8, seq, 1, 2]),
  });

describe('RealtimeSdk binary frames', () => {
  it('asks the socket for ArrayBuffers and sends a frame only while open', () => {
    const { sdk, socket } = setup();
    expect(socket().binaryType).toBe('arraybuffer');
    // not open yet: nothing is queued, the caller is told
    expect(sdk.sendBinary(frame(1))).toBe(false);
    socket().open();
    expect(sdk.sendBinary(frame(2))).toBe(true);
    expect(socket().binary.map((b) => decodeAudioFrame(b)!.seq)).toEqual([2]);
    // JSON traffic is untouched (the three heartbeats of the open)
    expect(socket().heartbeats()).toHaveLength(3);
    socket().drop();
    expect(sdk.sendBinary(frame(3))).toBe(false);
    sdk.destroy();
  });

  it('drops a frame rather than queue it behind a backlog', () => {
    const { sdk, socket } = setup();
    socket().open();
    socket().bufferedAmount = BINARY_BACKLOG_MAX_BYTES + 1;
    expect(sdk.sendBinary(frame(1))).toBe(false);
    socket().bufferedAmount = 0;
    expect(sdk.sendBinary(frame(2))).toBe(true);
    expect(socket().binary).toHaveLength(1);
    sdk.destroy();
  });

  it('hands ArrayBuffers, views and Blobs to the binary listeners, never to the JSON path', async () => {
    const { sdk, socket, warn } = setup();
    socket().open();
    const got: number[] = [];
    const off = sdk.onBinary((bytes) => got.push(decodeAudioFrame(bytes)!.seq));
    const bytes = frame(1);
    socket().receiveBinary(bytes.buffer.slice(0));
    // a view into a larger buffer (Node's Buffer): only its own bytes
    const padded = new Uint8Array(bytes.byteLength + 8);
    padded.set(frame(2), 4);
    socket().receiveBinary(padded.subarray(4, 4 + bytes.byteLength));
    // jsdom's Blob cannot read itself back: this one says what a browser's would
    const blob = Object.assign(new Blob([frame(3).slice()]), { arrayBuffer: () => Promise.resolve(frame(3).buffer) });
    socket().receiveBinary(blob);
    await vi.waitFor(() => expect(got).toEqual([1, 2, 3]));
    expect(warn).not.toHaveBeenCalled();
    off();
    socket().receiveBinary(frame(4).buffer);
    expect(got).toEqual([1, 2, 3]);
    sdk.destroy();
  });

  it('a failing binary listener does not keep the frame from the others', () => {
    const { sdk, socket } = setup();
    socket().open();
    const error = vi.spyOn(sdk.log, 'error');
    const second = vi.fn();
    sdk.onBinary(() => {
      throw new Error('boom');
    });
    sdk.onBinary(second);
    socket().receiveBinary(frame(1).buffer);
    expect(second).toHaveBeenCalledTimes(1);
    expect(error).toHaveBeenCalledWith('binary listener failed', expect.any(Error));
    sdk.destroy();
  });
});
