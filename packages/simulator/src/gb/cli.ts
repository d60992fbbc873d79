/**
 * GB28181 devices from the command line:
 *   npx tsx packages/simulator/src/gb/cli.ts --server 127.0.0.1:5060 --devices 100 --password 12345678
 */
import { parseArgs } from 'node:util';
import { SETTINGS_DEFAULTS } from '@bwc/protocol';
import { GbSimHub } from './hub';

const USAGE = `usage: tsx src/gb/cli.ts --server HOST:PORT [--devices 1] [--password 12345678]
       [--server-id 34020000002000000001] [--domain 3402000000] [--first-id 34020000001320000001]
       [--transport udp|tcp] [--host 127.0.0.1] [--channels 4] [--keepalive 60] [--expires 3600]
       [--rate 500] [--near 114.0579,22.5431]
  --near: longitude,latitude the devices stand around (a grid ~300 m apart; default the console's
    default map centre); each walks a ~200 m circle in its MobilePosition NOTIFYs
  --first-id: the first device's id; the others follow it (serial +10, room for up to 9 channels)
  --rate: REGISTERs per second at start and stop; stats every 10 s; Ctrl-C unregisters and exits`;

/** A line on stdout (the simulator's output, not a diagnostic). */
const say = (line: string) => process.stdout.write(`${line}\n`);

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

let values: Record<string, string | undefined>;
try {
  ({ values } = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    options: {
      server: { type: 'string' },
      devices: { type: 'string', default: '1' },
      password: { type: 'string', default: '12345678' },
      'server-id': { type: 'string', default: '34020000002000000001' },
      domain: { type: 'string', default: '3402000000' },
      'first-id': { type: 'string', default: '34020000001320000001' },
      transport: { type: 'string', default: 'udp' },
      host: { type: 'string', default: '127.0.0.1' },
      channels: { type: 'string', default: '4' },
      keepalive: { type: 'string', default: '60' },
      expires: { type: 'string', default: '3600' },
      rate: { type: 'string', default: '500' },
      near: { type: 'string' },
    },
  }) as { values: Record<string, string | undefined> });
} catch (err) {
  fail((err as Error).message);
}

const int = (name: string, min: number, max: number): number => {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < min || n > max) fail(`--${name} must be an integer ${min}..${max}`);
  return n;
};

const server = /^([^:]+):(\d{1,5})$/.exec(values.server ?? '') ?? fail('--server HOST:PORT is needed');
const firstId = values['first-id']!;
if (!/^\d{20}$/.test(firstId)) fail('--first-id must be 20 digits');
if (!/^\d{20}$/.test(values['server-id']!)) fail('--server-id must be 20 digits');
if (!/^\d{10}$/.test(values.domain!)) fail('--domain must be 10 digits');
const transport = values.transport === 'tcp' ? 'tcp' : values.transport === 'udp' ? 'udp' : fail('--transport udp|tcp');
const count = int('devices', 1, 100_000);
const channels = int('channels', 0, 9);
const rate = int('rate', 1, 100_000);
const { gpscenter_lon, gpscenter_lat } = SETTINGS_DEFAULTS.digitailmap;
const near = /^(-?\d{1,3}(?:\.\d+)?),(-?\d{1,2}(?:\.\d+)?)$/.exec(values.near ?? `${gpscenter_lon},${gpscenter_lat}`);
const [lng, lat] = near ? [Number(near[1]), Number(near[2])] : fail('--near LONGITUDE,LATITUDE');
if (Math.abs(lng) > 180 || Math.abs(lat) > 90) fail('--near LONGITUDE,LATITUDE within -180..180, -90..90');

const hub = new GbSimHub({ host: values.host! });
await hub.start();
const serial = Number(firstId.slice(14));
for (let i = 0; i < count; i++) {
  const id = `${firstId.slice(0, 14)}${String((serial + i * 10) % 1_000_000).padStart(6, '0')}`;
  const dev = hub.device({
    deviceId: id,
    password: values.password!,
    transport,
    channels,
    // a grid of 5 x 5 around --near, about 300 m apart (in the map's first view), then again
    position: { longitude: lng + 0.003 * ((i % 5) - 2), latitude: lat + 0.0027 * ((Math.floor(i / 5) % 5) - 2) },
    keepaliveIntervalSec: int('keepalive', 1, 86_400),
    expires: int('expires', 1, 86_400),
    server: { id: values['server-id']!, domain: values.domain!, host: server[1]!, port: Number(server[2]) },
  });
  dev.on('registerFailed', ({ status, reason }) => say(`${id}: REGISTER ${status} ${reason}`));
  dev.on('streaming', ({ channelId }) => say(`${channelId}: streaming`));
  dev.on('streamStopped', ({ channelId, reason }) => say(`${channelId}: stream stopped (${reason})`));
  dev.on('ptz', ({ channelId, action }) => say(`${channelId}: PTZ ${action}`));
  dev.on('warn', (line) => say(`${id}: ${line}`));
}
say(`${count} devices (${transport}) registering with ${values.server} at ${rate}/s`);
const registered = await hub.startAll(undefined, rate);
say(`${registered} of ${count} registered`);
const timer = setInterval(() => say(JSON.stringify(hub.stats())), 10_000);

let stopping = false;
const stop = async () => {
  if (stopping) process.exit(1);
  stopping = true;
  clearInterval(timer);
  say('unregistering ...');
  await hub.stop(rate);
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
