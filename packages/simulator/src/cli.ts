import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { evidenceRoot } from './evidence/camera-evidence';
import { simulatedIdentity, startSimulator } from './fleet';
import {
  findAiToken,
  findProvisionKey,
  parseChance,
  parseConsoleUrl,
  parseInterval,
  parseRatePerMin,
  parseRecordEvery,
  parseTalkEvery,
} from './options';
import { startWorkstations } from './workstation/station';

const USAGE = `usage: npm run sim -- --devices 200 [--server http://127.0.0.1:8080] [--interval 1-5s]
       [--provision-key KEY] [--prefix SIM] [--no-commands] [--no-cameras] [--seed N]
       [--faces-per-min 0.5] [--plates-per-min 0.5] [--ai-token TOKEN]
       [--no-terminals] [--console-url ws://127.0.0.1:9080/] [--im-rate 0.0015] [--reply-rate 0.9]
       [--sos-rate 0.00005] [--offline-rate 0.0002] [--talk-every 2-4m | off] [--no-talk]
       [--record-every 10-20 | off] [--no-record] [--evidence-dir DIR] [--workstations N] [--dock-seconds 60]
  devices with a cluster number are terminals of the console service (default address: /ws/console
  of --server): positions, emergencies and group messages go through it, messages to them are
  answered; --im-rate is the chance per upload of a group message, --no-terminals: device API only
  group talk: terminals enter their first talk group and listen; every --talk-every (default 2-4m,
  the first round within a minute) one terminal of each group talks 2-3 s, spoken by espeak-ng if
  installed, else a tone of its own (400-1900 Hz; ffmpeg encodes it); off: they only listen;
  --no-talk: no group talk at all
  a device told startlive publishes a test picture with ffmpeg to the URL it was given (camera.ts);
  --no-cameras refuses startlive
  evidence: with --record-every (minutes, e.g. 10-20; default off) every camera records a clip
  now and then (a 5-20 s 640x360 MP4 with its name and clock, an MP3 note spoken by espeak-ng or a
  tone, or a JPEG photo), at most 2 cameras at once, and uploads it over tus to the device upload
  endpoint; clips wait in --evidence-dir (default: the system temp folder, bwc-sim-evidence/<server>/
  <device>) until the server confirms them, so a restarted simulator sends what was left;
  --no-record: no recording even with --record-every
  --workstations N (default 0): docking workstations (provisioned with the same key, unit: the
  first root unit) where 2 of the fleet's cameras each dock in turn for --dock-seconds; the station
  heartbeats with the docked camera and uploads the clip it hands over at the workstation upload
  endpoint on the camera's behalf
  --sos-rate and --offline-rate: chance per upload of an SOS and of an offline spell (0: never)
  face and plate results go to the AI engine API with generated pictures; the token is --ai-token,
  else AI_ENGINE_TOKEN, else DATA_DIR/ai-engine.token (the server writes it); 0 per minute (the default): off`;

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

let values: Record<string, string | boolean | undefined>;
try {
  ({ values } = parseArgs({
    args: process.argv.slice(2),
    strict: true,
    options: {
      devices: { type: 'string', default: '200' },
      server: { type: 'string', default: process.env.SIM_SERVER ?? 'http://127.0.0.1:8080' },
      interval: { type: 'string', default: '1-5s' },
      'provision-key': { type: 'string' },
      prefix: { type: 'string', default: 'SIM' },
      'no-commands': { type: 'boolean', default: false },
      'no-cameras': { type: 'boolean', default: false },
      seed: { type: 'string' },
      'faces-per-min': { type: 'string', default: '0' },
      'plates-per-min': { type: 'string', default: '0' },
      'ai-token': { type: 'string' },
      'no-terminals': { type: 'boolean', default: false },
      'console-url': { type: 'string' },
      'im-rate': { type: 'string', default: '0.0015' },
      'reply-rate': { type: 'string', default: '0.9' },
      'sos-rate': { type: 'string' },
      'offline-rate': { type: 'string' },
      'talk-every': { type: 'string', default: '2-4m' },
      'no-talk': { type: 'boolean', default: false },
      'record-every': { type: 'string', default: 'off' },
      'no-record': { type: 'boolean', default: false },
      'evidence-dir': { type: 'string' },
      workstations: { type: 'string', default: '0' },
      'dock-seconds': { type: 'string', default: '60' },
      help: { type: 'boolean', default: false },
    },
  }));
} catch (err) {
  fail((err as Error).message);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const devices = Number(values.devices);
if (!Number.isInteger(devices) || devices < 1 || devices > 100_000)
  fail('--devices must be a whole number from 1 to 100000');
if (!/^[A-Za-z0-9_-]{1,20}$/.test(String(values.prefix))) fail('--prefix must be 1 to 20 letters, digits, _ or -');
const workstations = Number(values.workstations);
if (!Number.isInteger(workstations) || workstations < 0 || workstations > 100)
  fail('--workstations must be a whole number from 0 to 100');
const dockSeconds = Number(values['dock-seconds']);
if (!Number.isFinite(dockSeconds) || dockSeconds < 5 || dockSeconds > 3600)
  fail('--dock-seconds must be from 5 to 3600');
let intervalS: [number, number];
let provisionKey: string;
let facesPerMin: number;
let platesPerMin: number;
let imRate: number;
let replyRate: number;
let consoleUrl: string | undefined;
let sosRate: number | undefined;
let offlineRate: number | undefined;
let talkEveryS: [number, number] | null;
let recordEveryS: [number, number] | null;
try {
  recordEveryS = values['no-record'] ? null : parseRecordEvery(String(values['record-every']));
  talkEveryS = parseTalkEvery(String(values['talk-every']));
  sosRate = values['sos-rate'] === undefined ? undefined : parseChance(String(values['sos-rate']), '--sos-rate');
  offlineRate =
    values['offline-rate'] === undefined ? undefined : parseChance(String(values['offline-rate']), '--offline-rate');
  imRate = parseChance(String(values['im-rate']), '--im-rate');
  replyRate = parseChance(String(values['reply-rate']), '--reply-rate');
  consoleUrl = values['console-url'] === undefined ? undefined : parseConsoleUrl(String(values['console-url']));
  intervalS = parseInterval(String(values.interval));
  facesPerMin = parseRatePerMin(String(values['faces-per-min']), '--faces-per-min');
  platesPerMin = parseRatePerMin(String(values['plates-per-min']), '--plates-per-min');
  provisionKey = findProvisionKey(values['provision-key'] as string | undefined);
} catch (err) {
  fail((err as Error).message);
}

const log = (line: string) => console.log(`[sim ${new Date().toISOString().slice(11, 19)}] ${line}`);
const stop = await startSimulator({
  server: String(values.server),
  devices,
  provisionKey,
  intervalS,
  prefix: String(values.prefix),
  commands: !values['no-commands'],
  cameras: !values['no-cameras'],
  seed: values.seed === undefined ? undefined : Number(values.seed),
  facesPerMin,
  platesPerMin,
  aiToken: () => findAiToken(values['ai-token'] as string | undefined),
  terminals: !values['no-terminals'],
  consoleUrl,
  imRate,
  replyRate,
  sosRate,
  offlineRate,
  talk: !values['no-talk'],
  talkEveryS,
  recordEveryS,
  evidenceDir: values['evidence-dir'] as string | undefined,
  log,
}).catch((err: unknown) => fail(`cannot start: ${(err as Error).message}`));

const stations =
  workstations > 0
    ? await startWorkstations({
        count: workstations,
        server: String(values.server),
        provisionKey,
        prefix: String(values.prefix),
        cameras: Array.from({ length: Math.min(devices, workstations * 2) }, (_v, i) =>
          simulatedIdentity(String(values.prefix), i + 1),
        ),
        dir: join(
          (values['evidence-dir'] as string | undefined) ?? evidenceRoot(String(values.server)),
          'workstations',
        ),
        dockMs: dockSeconds * 1000,
        log,
      }).catch((err: unknown) => fail(`workstations cannot start: ${(err as Error).message}`))
    : null;

log(
  `running ${devices} devices against ${values.server}, uploads every ${intervalS[0]}-${intervalS[1]} s, face results ${facesPerMin}/min, plate results ${platesPerMin}/min; Ctrl+C stops`,
);
let last = 0;
const report = setInterval(() => {
  const s = stop.stats;
  log(
    `online ${s.online}/${s.devices}, killed ${s.killed}, positions ${s.positions} (+${s.positions - last}), batches ${s.batches}, sos ${s.sos}, faces ${s.faces}, plates ${s.plates}, offline spells ${s.offlineSpells}, terminals ${s.terminalsOnline}/${s.terminals} (im sent ${s.imSent}, received ${s.imReceived}, answered ${s.imAnswered}; talk bursts ${s.talkBursts}, frames sent ${s.talkFramesSent}, heard ${s.talkFramesHeard}, lost ${s.talkFramesLost}), commands ${s.commands}, cameras live ${s.cameras}, clips recorded ${s.clipsRecorded} (uploaded ${s.clipsUploaded}, queued ${s.clipsQueued}), errors ${s.errors}${s.lastError ? ` (last: ${s.lastError})` : ''}`,
  );
  last = s.positions;
  for (const st of stations?.stations ?? []) {
    const w = st.stats;
    log(
      `workstation: docks ${w.docks}, heartbeats ${w.heartbeats}, clips ${w.recorded} (stored ${w.stored}, already stored ${w.duplicates}, refused ${w.refused}), errors ${w.errors}${w.lastError ? ` (last: ${w.lastError})` : ''}`,
    );
  }
}, 10_000);

async function shutdown(): Promise<void> {
  clearInterval(report);
  log('stopping');
  await stations?.close();
  await stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
