/**
 * Worker thread of bench/alarms.ts: the console sockets. They run on a thread of their own so that
 * receiving 100 x 1,000 messages/s does not share an event loop with the load generator (on a
 * 2-core machine the server, this thread and the generator still share 2 cores: the bench says so).
 *
 * In: workerData { port, path, consoles: {token, logincode, username}[] }. Posts 'ready' once every
 * console answered client_login 200 (or { error }). On 'report' posts { seqs, times, deliveries,
 * others }: for each alarm_data of the bench (message "bench <n>") its n and the absolute receive
 * time (performance.timeOrigin + performance.now(), ms), transferred as typed arrays.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { WebSocket, type WsClient } from '../packages/simulator/src/ws';


interface Input {
  port: number;
  path: string;
  consoles: { token: string; logincode: string; username: string }[];
}

const input = workerData as Input;
const port = parentPort!;
let seqs = new Int32Array(1 << 20);
let times = new Float64Array(1 << 20);
let deliveries = 0;
let others = 0;
const sockets: WsClient[] = [];

function record(seq: number, at: number): void {
  if (deliveries === seqs.length) {
    const s = new Int32Array(seqs.length * 2);
    s.set(seqs);
    seqs = s;
    const t = new Float64Array(times.length * 2);
    t.set(times);
    times = t;
  }
  seqs[deliveries] = seq;
  times[deliveries] = at;
  deliveries += 1;
}

// matched on the raw bytes: no UTF-8 decoding of 100,000 messages a second
const MARK = Buffer.from('"message":"bench ');
const ALARM = Buffer.from('{"type":"alarm_data"');
const LOGIN = Buffer.from('{"cmd":"client_login"');

/** The decimal number at `at` in `buf` (up to the first non-digit). */
function numberAt(buf: Buffer, at: number): number {
  let n = 0;
  for (let i = at; i < buf.length; i++) {
    const d = buf[i]! - 48;
    if (d < 0 || d > 9) break;
    n = n * 10 + d;
  }
  return n;
}

const startsWith = (buf: Buffer, prefix: Buffer) =>
  buf.length >= prefix.length && buf.compare(prefix, 0, prefix.length, 0, prefix.length) === 0;

Promise.all(
  input.consoles.map(
    (c) =>
      new Promise<void>((res, rej) => {
        const ws = new WebSocket(`ws://127.0.0.1:${input.port}${input.path}`, {
          headers: { authorization: `Bearer ${c.token}` },
          // the server's frames are its own JSON: the bench does not re-validate their UTF-8
          skipUTF8Validation: true,
        });
        sockets.push(ws);
        ws.on('error', rej);
        ws.on('open', () =>
          ws.send(
            JSON.stringify({ cmd: 'client_login', logincode: c.logincode, username: c.username, scode: '', cate: '' }),
          ),
        );
        ws.on('message', (data) => {
          const at = performance.timeOrigin + performance.now();
          if (startsWith(data, LOGIN)) {
            const text = data.toString();
            if (text.includes('"code":200')) res();
            else rej(new Error(text));
            return;
          }
          const i = startsWith(data, ALARM) ? data.indexOf(MARK) : -1;
          if (i < 0) {
            others += 1;
            return;
          }
          record(numberAt(data, i + MARK.length), at);
        });
      }),
  ),
).then(
  () => port.postMessage('ready'),
  (err: unknown) => port.postMessage({ error: String(err) }),
);

port.on('message', (msg: unknown) => {
  if (msg === 'count') {
    port.postMessage({ deliveries });
    return;
  }
  if (msg !== 'report') return;
  for (const ws of sockets) ws.close();
  const s = seqs.slice(0, deliveries);
  const t = times.slice(0, deliveries);
  port.postMessage({ seqs: s, times: t, deliveries, others }, [s.buffer, t.buffer]);
});
