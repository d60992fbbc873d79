import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { Api, type DeviceCommand } from '@bwc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFfmpeg } from './camera';
import { startSimulator, type StopSimulator } from './fleet';

/**
 * The fleet obeying startlive / stoplive against a stand-in of the server's device API: the
 * device's ffmpeg dials the RTMP address of the payload and opens an RTMP session (handshake,
 * then the connect command to the app `live`); stoplive ends the process.
 */

async function until(what: string, probe: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The device API the fleet needs: provision, login, positions, status, commands (long poll) and acks. */
function deviceApi() {
  const queue: DeviceCommand[] = [];
  const acks = new Map<number, { result: string; message: string }>();
  const waiting = new Set<() => void>();
  let nextId = 1;
  const server = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>) : {};
      const answer = (data: unknown) => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ code: 200, msg: 'ok', data }));
      };
      const path = (req.url ?? '').split('?')[0];
      if (path === Api.deviceProvision.path) {
        const devices = (body.devices as { hostbody: string; imei: string }[]).map((d, i) => ({ id: i + 1, hostbody: d.hostbody, imei: d.imei, secret: 's' }));
        answer({ devices, config: { gpscenter_lat: 22.54, gpscenter_lon: 114.05 } });
      } else if (path === Api.deviceLogin.path) answer({ token: 't', id: 1, hostbody: body.device, imei: '' });
      else if (path === Api.devicePositions.path) answer({ accepted: (body.positions as unknown[]).length, rejected: [] });
      else if (path === Api.deviceState.path) answer(null);
      else if (path === Api.deviceCommandAck.path) {
        acks.set(body.id as number, { result: body.result as string, message: body.message as string });
        answer(null);
      } else if (path === Api.deviceCommands.path) {
        const send = () => answer(queue.splice(0));
        if (queue.length) return send();
        const wake = () => {
          waiting.delete(wake);
          clearTimeout(timer);
          send();
        };
        const timer = setTimeout(wake, 25_000);
        waiting.add(wake);
      } else {
        res.statusCode = 404;
        res.end();
      }
    });
  });
  return {
    server,
    acks,
    send(type: DeviceCommand['type'], payload?: Record<string, unknown>): number {
      const id = nextId++;
      queue.push({ id, type, created: new Date().toISOString(), ...(payload ? { payload } : {}) });
      for (const wake of [...waiting]) wake();
      return id;
    },
    close() {
      for (const wake of [...waiting]) wake();
      server.closeAllConnections();
      server.close();
    },
  };
}

/**
 * A listener that plays the RTMP server's part of the handshake (S0, S1, S2 = C1 echoed) and
 * keeps what the client sends.
 */
function rtmpSink() {
  const sessions: { received: Buffer; socket: Socket }[] = [];
  const server: Server = createServer((socket) => {
    const session = { received: Buffer.alloc(0), socket };
    sessions.push(session);
    let answered = false;
    socket.on('data', (chunk: Buffer) => {
      session.received = Buffer.concat([session.received, chunk]);
      if (!answered && session.received.length >= 1 + 1536) {
        answered = true;
        socket.write(Buffer.concat([Buffer.from([3]), Buffer.alloc(1536), session.received.subarray(1, 1 + 1536)]));
      }
    });
    socket.on('error', () => {});
  });
  return { server, sessions };
}

const listen = (s: Server | ReturnType<typeof createHttpServer>) =>
  new Promise<number>((resolve) => s.listen(0, '127.0.0.1', () => resolve((s.address() as { port: number }).port)));

describe.skipIf(!findFfmpeg())('fleet cameras', () => {
  const api = deviceApi();
  const rtmp = rtmpSink();
  let sim: StopSimulator;
  let rtmpPort: number;
  const ack = (id: number) => api.acks.get(id);

  beforeAll(async () => {
    const apiPort = await listen(api.server);
    rtmpPort = await listen(rtmp.server);
    sim = await startSimulator({
      server: `http://127.0.0.1:${apiPort}`,
      devices: 1,
      provisionKey: 'k',
      intervalS: [0.5, 1],
      terminals: false,
      offlineRate: 0,
      sosRate: 0,
      seed: 1,
    });
  }, 60_000);

  afterAll(async () => {
    await sim?.();
    api.close();
    for (const s of rtmp.sessions) s.socket.destroy();
    rtmp.server.close();
  });

  it('refuses startlive without a URL', async () => {
    const id = api.send('startlive');
    await until('the ack', () => ack(id) !== undefined);
    expect(ack(id)).toEqual({ result: 'failed', message: 'startlive without a publish URL in its payload' });
    expect(sim.stats.cameras).toBe(0);
  });

  it('publishes to the URL of startlive (an RTMP session to the live app), stops on stoplive', async () => {
    const url = `rtmp://127.0.0.1:${rtmpPort}/live/1?key=abc`;
    const start = api.send('startlive', { url, expires: Date.now() + 60_000 });
    await until('the ack', () => ack(start) !== undefined);
    expect(ack(start)).toEqual({ result: 'ok', message: 'publishing' });
    expect(sim.stats.cameras).toBe(1);
    await until('ffmpeg dials the RTMP port', () => rtmp.sessions.length === 1);
    const session = rtmp.sessions[0]!;
    // C0: RTMP version 3, then C1 and, once answered, C2 and the connect command (AMF0; its
    // strings may be cut by chunk headers, the short ones are whole)
    await until('the connect command', () => session.received.includes('connect') && session.received.includes('live'));
    expect(session.received[0]).toBe(0x03);

    // camera commands are acknowledged with what the picture now shows
    const left = api.send('turnleft');
    const mute = api.send('startmute');
    await until('the acks', () => ack(left) !== undefined && ack(mute) !== undefined);
    expect(ack(left)).toEqual({ result: 'ok', message: 'panned to -15°' });
    expect(ack(mute)).toEqual({ result: 'ok', message: 'muted' });

    const closed = new Promise<void>((resolve) => session.socket.once('close', () => resolve()));
    const stop = api.send('stoplive');
    await until('the ack', () => ack(stop) !== undefined);
    expect(ack(stop)).toEqual({ result: 'ok', message: 'stopped' });
    // the ack comes once the process has ended: its socket closes with it
    await closed;
    await until('the count follows', () => sim.stats.cameras === 0);
    const again = api.send('stoplive');
    await until('the ack', () => ack(again) !== undefined);
    expect(ack(again)).toEqual({ result: 'ok', message: 'was not publishing' });
  }, 90_000);

  it('a restart takes the camera down with the device', async () => {
    const start = api.send('startlive', { url: `rtmp://127.0.0.1:${rtmpPort}/live/1?key=def`, expires: Date.now() + 60_000 });
    await until('the ack', () => ack(start) !== undefined);
    expect(sim.stats.cameras).toBe(1);
    await until('ffmpeg dials again', () => rtmp.sessions.length === 2);
    const restart = api.send('restart');
    await until('the ack', () => ack(restart) !== undefined);
    await until('the camera stops', () => sim.stats.cameras === 0);
  }, 90_000);
});
