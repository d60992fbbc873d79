import { join } from 'node:path';
import { imeiWithCheckDigit, type DeviceCommand } from '@bwc/protocol';
import { buildAiResult, nextAiDelayMs, type AiKind } from './ai';
import { findFfmpeg, SimCamera } from './camera';
import { DeviceApiError, DeviceClient, postAiResult, provisionDevices, Transport, type Position } from './client';
import { CameraEvidence, evidenceRoot, Gate } from './evidence/camera-evidence';
import { RecorderError } from './evidence/recorder';
import { EvidenceUploadError } from './evidence/uploader';
import { rng, StreetWalker } from './path';
import { findEspeak, TalkMediaError, type BurstSource } from './talk/media';
import { toneOf } from './talk/tone';
import { ConsoleTerminal, consoleUrlOf } from './terminal';

export interface SimulatorOptions {
  /** server base URL, e.g. http://127.0.0.1:8080 */
  server: string;
  /** number of devices */
  devices: number;
  /** the server's device provisioning key (DEVICE_PROVISION_KEY or DATA_DIR/device-provision.key) */
  provisionKey: string;
  /** seconds between uploads, drawn per upload in [min, max] (default 1 to 5) */
  intervalS?: [number, number];
  /** hostbody prefix (default SIM): devices are <prefix>00001... */
  prefix?: string;
  /**
   * chance per upload that a device goes offline for a while (default 0.0002: about one spell per
   * camera every four hours at the default 1-5 s uploads, as a shift's dead spots or a battery
   * swap; 0.002 raised a device-offline alarm every 15 s with 100 devices and kept the bell at 99+)
   */
  offlineRate?: number;
  /** how long an offline spell lasts, seconds (default 20 to 90) */
  offlineS?: [number, number];
  /** chance per upload of an SOS (default 0.00005: about six an hour over 100 devices) */
  sosRate?: number;
  /**
   * Devices with a cluster number (jq_hostcode) are also terminals of the console service: they
   * log on there, report positions and raise emergencies through it, write to their talk group and
   * answer messages (default true; false: every device speaks the device API only).
   */
  terminals?: boolean;
  /** websocket address of the console service (default: /ws/console under the server's port) */
  consoleUrl?: string;
  /**
   * chance per upload that a terminal writes a text to one of its talk groups (default 0.0015:
   * about two messages an hour per terminal at the default 1-5 s uploads)
   */
  imRate?: number;
  /** chance that a terminal answers a text written to it (default 0.9), after a few seconds */
  replyRate?: number;
  /** group talk: terminals enter their first talk group at logon and hear it (default true) */
  talk?: boolean;
  /**
   * Seconds between rounds of group talk, drawn per round in [min, max]: in each round one
   * terminal of every group terminals listen to talks a 2-3 s burst, spoken by espeak-ng when it
   * is installed, else its own tone (toneOf its uid). Default 120 to 240; null: they only listen.
   */
  talkEveryS?: [number, number] | null;
  /** where encoded talk clips are kept (default TALK_CACHE_DIR) */
  talkCacheDir?: string;
  /** the ffmpeg of live video and talk (default: @ffmpeg-installer/ffmpeg; null: none) */
  ffmpeg?: string | null;
  /** face recognition results posted as the AI engine, per minute over the whole fleet (default 0: none) */
  facesPerMin?: number;
  /** plate recognition results per minute over the whole fleet (default 0: none) */
  platesPerMin?: number;
  /**
   * The AI engine token (`AI_ENGINE_TOKEN` / DATA_DIR/ai-engine.token), or a function asked before
   * each result until it answers one; needed when facesPerMin or platesPerMin is above 0.
   */
  aiToken?: string | (() => string | undefined);
  /** long-poll and obey commands (kill, wake, restart, camera commands); default true */
  commands?: boolean;
  /**
   * Devices publish live video (ffmpeg, camera.ts) when told `startlive`, and their pictures show
   * the camera commands (default true; false: startlive is acknowledged as failed)
   */
  cameras?: boolean;
  /**
   * Evidence: every camera records a clip (a video, an audio note or a photo, evidence/recorder.ts)
   * every [min, max] seconds, drawn per clip, and uploads it over tus with its token; the first
   * clips are spread over one interval. Default null: no recording.
   */
  recordEveryS?: [number, number] | null;
  /** cameras recording or uploading at the same time, fleet-wide (default 2) */
  recordConcurrency?: number;
  /** folder of the cameras' clip queues (default evidenceRoot(server), kept between runs) */
  evidenceDir?: string;
  /** movers stay within this distance of the map centre, metres (default 3000) */
  radiusM?: number;
  /** seed of the random movements (default: random) */
  seed?: number;
  /** sockets for uploads (default 64) */
  maxSockets?: number;
  /** progress lines (default: none) */
  log?: (line: string) => void;
}

export interface SimulatorStats {
  devices: number;
  online: number;
  killed: number;
  batches: number;
  positions: number;
  rejected: number;
  sos: number;
  /** face / plate results the server accepted */
  faces: number;
  plates: number;
  offlineSpells: number;
  commands: number;
  /** cameras publishing live video now */
  cameras: number;
  /** console-service terminals: started, logged on now, messages sent / received / answered */
  terminals: number;
  terminalsOnline: number;
  imSent: number;
  imReceived: number;
  imAnswered: number;
  /** group talk: bursts talked (granted), frames sent, frames heard and lost over all terminals */
  talkBursts: number;
  talkFramesSent: number;
  talkFramesHeard: number;
  talkFramesLost: number;
  /** evidence: clips recorded, delivered (stored, or already stored), waiting in the queues */
  clipsRecorded: number;
  clipsUploaded: number;
  clipsQueued: number;
  errors: number;
  lastError: string;
}

export type StopSimulator = (() => Promise<void>) & { stats: SimulatorStats };

const SURNAMES = [
  '王',
  '李',
  '张',
  '刘',
  '陈',
  '杨',
  '黄',
  '赵',
  '吴',
  '周',
  '徐',
  '孙',
  '马',
  '朱',
  '胡',
  '郭',
  '何',
  '林',
  '高',
  '罗',
];
const GIVEN = [
  '伟',
  '芳',
  '娜',
  '敏',
  '静',
  '强',
  '磊',
  '军',
  '洋',
  '勇',
  '艳',
  '杰',
  '涛',
  '明',
  '超',
  '秀英',
  '华',
  '平',
  '刚',
  '桂英',
];

function prefixNumber(prefix: string): number {
  let h = 2166136261;
  for (const c of prefix) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h % 1_000_000;
}

/** The identity of simulated device `index` (1-based) under `prefix`: stable across runs. */
export function simulatedIdentity(prefix: string, index: number) {
  const n = String(index).padStart(5, '0');
  return {
    hostbody: `${prefix}${n}`,
    imei: imeiWithCheckDigit(`86${String(prefixNumber(prefix)).padStart(6, '0')}${String(index).padStart(6, '0')}`),
    hostname: `${SURNAMES[index % SURNAMES.length]}${GIVEN[Math.floor(index / SURNAMES.length) % GIVEN.length]}`,
    hostcode: String(100000 + index),
    // most devices can join trunked talk groups, some cannot
    jq_hostcode: index % 10 < 7 ? String(80000 + index) : '',
  };
}

class Sleeper {
  private readonly timers = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  stopped = false;

  sleep(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const entry = {
        timer: setTimeout(() => {
          this.timers.delete(entry);
          resolve();
        }, ms),
        resolve,
      };
      this.timers.add(entry);
    });
  }

  stop(): void {
    this.stopped = true;
    for (const e of this.timers) {
      clearTimeout(e.timer);
      e.resolve();
    }
    this.timers.clear();
  }
}

/** How long a restarted device stays away, ms */
const RESTART_PAUSE_MS: [number, number] = [3_000, 8_000];

class SimDevice {
  killed = false;
  online = false;
  offlineUntil = 0;
  battery: number;
  lastSend = Date.now();
  /** last uploaded fix */
  last: { lat: number; lng: number } | null = null;
  /** the device as a console-service terminal (devices with a cluster number) */
  terminal: ConsoleTerminal | null = null;
  /** its live video (null: the fleet runs without cameras) */
  camera: SimCamera | null = null;
  /** its recorded clips and their upload (null: the fleet does not record) */
  evidence: CameraEvidence | null = null;

  constructor(
    readonly identity: { hostbody: string; hostname: string; jq_hostcode: string },
    readonly client: DeviceClient,
    readonly walker: StreetWalker,
    private readonly random: () => number,
  ) {
    this.battery = 40 + 60 * random();
  }

  /** Fixes for the time since the last upload, one per second (a 1 Hz GPS). */
  samples(nowMs: number): Position[] {
    const elapsedS = Math.max(1, Math.min(10, Math.round((nowMs - this.lastSend) / 1000)));
    const out: Position[] = [];
    for (let i = elapsedS - 1; i >= 0; i--) {
      const fix = this.walker.step(1);
      this.battery -= 0.01;
      if (this.battery < 8) this.battery = 100;
      out.push({
        time: nowMs - i * 1000,
        lat: round(fix.lat, 7),
        lng: round(fix.lng, 7),
        speed: fix.speed,
        course: fix.course,
        accuracy: round(3 + 12 * this.random(), 1),
        battery: Math.round(this.battery),
      });
    }
    this.lastSend = nowMs;
    this.last = out[out.length - 1]!;
    return out;
  }
}

function round(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

async function inBatches<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}

/** Defaults of offlineRate and sosRate (see SimulatorOptions). */
export const DEFAULT_OFFLINE_RATE = 0.0002;
export const DEFAULT_SOS_RATE = 0.00005;
/** Defaults of imRate and replyRate (see SimulatorOptions). */
export const DEFAULT_IM_RATE = 0.0015;
export const DEFAULT_REPLY_RATE = 0.9;
/** Default seconds between rounds of group talk (see SimulatorOptions.talkEveryS). */
export const DEFAULT_TALK_EVERY_S: [number, number] = [120, 240];
/** The groups' bursts of one round start within this many ms of each other (at most half a round apart). */
const TALK_SPREAD_MS = 10_000;
/** What terminals say when espeak-ng is installed: short, as on a radio (the officers speak Chinese, some English). */
const SPOKEN: { speech: string; voice: string }[] = [
  { speech: '巡逻正常', voice: 'cmn' },
  { speech: '收到，马上到', voice: 'cmn' },
  { speech: '已到达现场', voice: 'cmn' },
  { speech: '路口拥堵，绕行', voice: 'cmn' },
  { speech: 'On patrol, all clear', voice: 'en' },
  { speech: 'Copy that, on my way', voice: 'en' },
];

/**
 * Provision and log in `devices` simulated cameras, then move them along streets around the
 * configured map centre, uploading batches every 1-5 s, going offline and back now and then,
 * raising an occasional SOS and obeying commands. Speaks only the device API, and, with
 * facesPerMin / platesPerMin, the AI engine API (face and plate results with generated pictures
 * of what an online camera saw). Resolves once
 * every device is logged in, with the stop function.
 */
export async function startSimulator(options: SimulatorOptions): Promise<StopSimulator> {
  const prefix = options.prefix ?? 'SIM';
  const [minS, maxS] = options.intervalS ?? [1, 5];
  const offlineRate = options.offlineRate ?? DEFAULT_OFFLINE_RATE;
  const [offMin, offMax] = options.offlineS ?? [20, 90];
  const sosRate = options.sosRate ?? DEFAULT_SOS_RATE;
  const withCommands = options.commands ?? true;
  // looked up once for the fleet rather than per device
  const fleetFfmpeg = options.ffmpeg === undefined ? findFfmpeg() : options.ffmpeg;
  const random = rng(options.seed ?? Math.floor(Math.random() * 2 ** 31));
  const log = options.log ?? (() => {});
  const transport = new Transport({ server: options.server, maxSockets: options.maxSockets });
  const sleeper = new Sleeper();
  const stats: SimulatorStats = {
    devices: 0,
    online: 0,
    killed: 0,
    batches: 0,
    positions: 0,
    rejected: 0,
    sos: 0,
    faces: 0,
    plates: 0,
    offlineSpells: 0,
    commands: 0,
    cameras: 0,
    terminals: 0,
    terminalsOnline: 0,
    imSent: 0,
    imReceived: 0,
    imAnswered: 0,
    talkBursts: 0,
    talkFramesSent: 0,
    talkFramesHeard: 0,
    talkFramesLost: 0,
    clipsRecorded: 0,
    clipsUploaded: 0,
    clipsQueued: 0,
    errors: 0,
    lastError: '',
  };
  const fail = (err: unknown) => {
    stats.errors += 1;
    stats.lastError = err instanceof Error ? err.message : String(err);
  };

  // provision in chunks (the server takes up to 1000 per call)
  const identities = Array.from({ length: options.devices }, (_, i) => simulatedIdentity(prefix, i + 1));
  const secrets = new Map<string, string>();
  let centre = { lat: 0, lng: 0 };
  for (let i = 0; i < identities.length; i += 500) {
    const answer = await provisionDevices(transport, options.provisionKey, identities.slice(i, i + 500));
    for (const d of answer.devices) secrets.set(d.hostbody, d.secret);
    centre = { lat: answer.config.gpscenter_lat, lng: answer.config.gpscenter_lon };
  }
  log(`provisioned ${identities.length} devices around ${centre.lat.toFixed(5)}, ${centre.lng.toFixed(5)}`);

  const devices = identities.map(
    (id) =>
      new SimDevice(
        id,
        new DeviceClient(transport, id.hostbody, secrets.get(id.hostbody)!),
        new StreetWalker({ centre, radiusM: options.radiusM, random }),
        random,
      ),
  );
  await inBatches(devices, 50, async (d) => {
    await d.client.login();
    d.online = true;
  });
  stats.devices = devices.length;
  log(`logged in ${devices.length} devices`);

  if (options.cameras ?? true) {
    if (!fleetFfmpeg) log('no ffmpeg binary for this platform: startlive commands will be refused');
    const onChange = () => {
      stats.cameras = devices.filter((d) => d.camera?.running).length;
    };
    for (const d of devices) d.camera = new SimCamera({ identity: d.identity, log, onChange, ffmpeg: fleetFfmpeg });
  }

  const imRate = options.imRate ?? DEFAULT_IM_RATE;
  if (options.terminals ?? true) {
    const url = options.consoleUrl ?? consoleUrlOf(options.server);
    for (const d of devices) {
      if (!d.identity.jq_hostcode) continue;
      d.terminal = new ConsoleTerminal({
        url,
        logonName: d.identity.hostbody,
        passwd: secrets.get(d.identity.hostbody)!,
        clientid: `${d.identity.hostbody}-${Date.now().toString(36)}`,
        replyRate: options.replyRate ?? DEFAULT_REPLY_RATE,
        random,
        // a console asks where the terminal is: it reports at once
        onQueryGps: () => {
          if (!d.killed && d.terminal?.loggedOn)
            d.terminal
              .reportGps(d.samples(Date.now()))
              .then((answer) => {
                stats.positions += answer.accepted;
              })
              .catch(fail);
        },
        onError: (err) => {
          if (!sleeper.stopped) fail(err);
        },
        talk: { listen: options.talk ?? true, ffmpeg: fleetFfmpeg, cacheDir: options.talkCacheDir },
      });
      stats.terminals += 1;
    }
    await inBatches(
      devices.filter((d) => d.terminal),
      50,
      async (d) => {
        d.terminal!.start();
        await d.terminal!.whenLoggedOn().catch(fail);
      },
    );
    log(`${stats.terminals} devices with a cluster number logged on to the console service at ${url}`);
  }

  const between = (lo: number, hi: number) => lo + (hi - lo) * random();

  async function handle(d: SimDevice, cmd: DeviceCommand): Promise<void> {
    stats.commands += 1;
    switch (cmd.type) {
      case 'startlive': {
        const url = cmd.payload?.url;
        let failure = '';
        if (!d.camera) failure = 'this simulator runs without cameras';
        else if (d.killed) failure = 'the device is killed';
        else if (typeof url !== 'string' || !url) failure = 'startlive without a publish URL in its payload';
        else await d.camera.start(url).catch((err: unknown) => (failure = (err as Error).message));
        await d.client.ack(cmd.id, failure ? 'failed' : 'ok', failure || 'publishing');
        return;
      }
      case 'stoplive':
        await d.client.ack(cmd.id, 'ok', (await d.camera?.stop()) ? 'stopped' : 'was not publishing');
        return;
      case 'turnleft':
      case 'turnright':
      case 'takephoto':
      case 'startvideo':
      case 'startaudio':
      case 'stopaudio':
      case 'startmute':
      case 'stopmute':
        await d.client.ack(cmd.id, 'ok', d.camera?.command(cmd.type) ?? '');
        return;
      case 'remote_kill':
        d.killed = true;
        d.terminal?.stop();
        await d.camera?.stop();
        break;
      case 'remote_wakeon':
        d.killed = false;
        d.terminal?.start();
        break;
      case 'restart':
        await d.client.ack(cmd.id, 'ok', 'restarting');
        d.offlineUntil = Date.now() + between(...RESTART_PAUSE_MS);
        await d.client.status('offline', Math.round(d.battery)).catch(fail);
        d.terminal?.stop();
        await d.camera?.stop();
        d.online = false;
        return;
      default:
        break;
    }
    await d.client.ack(cmd.id, 'ok');
  }

  async function commandLoop(d: SimDevice): Promise<void> {
    while (!sleeper.stopped) {
      try {
        if (!d.client.loggedIn || Date.now() < d.offlineUntil) {
          await sleeper.sleep(1000);
          continue;
        }
        for (const cmd of await d.client.commands(25)) await handle(d, cmd);
      } catch (err) {
        if (sleeper.stopped) return;
        if (err instanceof DeviceApiError && err.code === 401) await d.client.login().catch(fail);
        else fail(err);
        await sleeper.sleep(3000);
      }
    }
  }

  async function uploadLoop(d: SimDevice): Promise<void> {
    // spread the first uploads over one interval
    await sleeper.sleep(between(0, maxS) * 1000);
    d.lastSend = Date.now();
    while (!sleeper.stopped) {
      await sleeper.sleep(between(minS, maxS) * 1000);
      if (sleeper.stopped) return;
      try {
        const nowMs = Date.now();
        if (d.offlineUntil) {
          if (nowMs < d.offlineUntil) continue;
          d.offlineUntil = 0;
          await d.client.login();
          await d.client.status('online', Math.round(d.battery));
          d.terminal?.start();
          d.online = true;
          d.lastSend = nowMs - 1000;
        }
        const batch = d.samples(nowMs);
        if (d.killed) continue;
        // a terminal reports through the console service while it is logged on there, else (the
        // service restarting, the login refused) through the device API like any other device
        const terminal = d.terminal?.loggedOn ? d.terminal : null;
        const answer = terminal ? await terminal.reportGps(batch) : await d.client.sendPositions(batch);
        stats.batches += 1;
        stats.positions += answer.accepted;
        stats.rejected += answer.rejected.length;
        if (random() < sosRate) {
          const last = batch[batch.length - 1]!;
          if (terminal) await terminal.emergency({ lat: last.lat, lng: last.lng });
          else await d.client.sos({ lat: last.lat, lng: last.lng });
          stats.sos += 1;
        }
        if (terminal && random() < imRate) await terminal.writeToGroup();
        if (random() < offlineRate) {
          await d.client.status('offline', Math.round(d.battery));
          d.terminal?.stop();
          await d.camera?.stop();
          d.online = false;
          d.offlineUntil = Date.now() + between(offMin, offMax) * 1000;
          stats.offlineSpells += 1;
        }
      } catch (err) {
        if (sleeper.stopped) return;
        if (err instanceof DeviceApiError && err.code === 423) d.killed = true;
        else if (err instanceof DeviceApiError && err.code === 401) await d.client.login().catch(fail);
        else fail(err);
      }
    }
  }

  // the AI engine: face and plate results of what an online camera saw, at random times
  let aiCount = 0;
  const aiTokenOf =
    typeof options.aiToken === 'function' ? options.aiToken : () => options.aiToken as string | undefined;
  let tokenMissingLogged = false;
  async function aiLoop(kind: AiKind, perMin: number): Promise<void> {
    // the first result soon (10 to 40 s, once cameras have sent positions), then a Poisson stream
    let first = true;
    while (!sleeper.stopped) {
      const delay = nextAiDelayMs(perMin, random);
      await sleeper.sleep(first ? Math.min(delay, between(10_000, 40_000)) : delay);
      first = false;
      if (sleeper.stopped) return;
      const token = aiTokenOf();
      if (!token) {
        if (!tokenMissingLogged)
          log('no AI engine token yet (AI_ENGINE_TOKEN or DATA_DIR/ai-engine.token): results wait');
        tokenMissingLogged = true;
        continue;
      }
      const seen = devices.filter((d) => d.online && !d.killed && d.last);
      if (!seen.length) continue;
      const d = seen[Math.floor(random() * seen.length)]!;
      const body = buildAiResult({
        kind,
        eventId: `${prefix}-${kind}-${Date.now().toString(36)}-${(aiCount += 1)}`,
        device: { hostbody: d.identity.hostbody, hostname: d.identity.hostname, ...d.last! },
        random,
      });
      try {
        await postAiResult(transport, token, body);
        if (kind === 'face') stats.faces += 1;
        else stats.plates += 1;
      } catch (err) {
        if (!sleeper.stopped) fail(err);
      }
    }
  }

  // group talk: now and then one terminal of each group talks, so that a dispatcher hears the groups
  const talkEvery = options.talkEveryS === undefined ? DEFAULT_TALK_EVERY_S : options.talkEveryS;
  async function talkLoop(every: [number, number]): Promise<void> {
    if (!fleetFfmpeg) {
      log('group talk: no ffmpeg binary for this platform; the terminals only listen');
      return;
    }
    let speech = findEspeak() !== null;
    log(
      `group talk: a terminal of each group talks every ${every[0]}-${every[1]} s (${speech ? 'speech by espeak-ng' : 'tones; install espeak-ng for speech'})`,
    );
    let broken: string | null = null;
    const talkIn = async (tgid: number, members: SimDevice[]) => {
      // the groups do not all talk at the same instant
      await sleeper.sleep(between(0, Math.min(TALK_SPREAD_MS, every[0] * 500)));
      const d = members[Math.floor(random() * members.length)]!;
      const terminal = d.terminal;
      if (sleeper.stopped || broken || d.killed || !terminal?.loggedOn || terminal.groupTalk.talking) return;
      const spoken = speech ? SPOKEN[Math.floor(random() * SPOKEN.length)]! : null;
      const source: BurstSource = spoken ?? { tone: toneOf(terminal.uid ?? 0) };
      try {
        // 2, 2.5 or 3 s: few lengths, so few clips to encode
        await terminal.talk(tgid, { seconds: Math.round(between(4, 6)) / 2, source });
      } catch (err) {
        if (sleeper.stopped) return;
        if (!(err instanceof TalkMediaError)) fail(err);
        else if (spoken && speech) {
          speech = false;
          log(`group talk: speech failed (${err.message}); tones from now on`);
        } else if (!spoken) broken ??= err.message;
      }
    };
    // the first round soon after start (as the AI results), so that a new user hears a group
    let first = true;
    let noGroupLogged = false;
    while (!sleeper.stopped && !broken) {
      const delay = between(...every) * 1000;
      await sleeper.sleep(first ? Math.min(delay, between(20_000, 60_000)) : delay);
      first = false;
      const groups = new Map<number, SimDevice[]>();
      for (const d of devices) {
        const tgid = d.terminal?.loggedOn && !d.killed ? d.terminal.groupTalk.attached : null;
        if (tgid === null || tgid === undefined) continue;
        const members = groups.get(tgid);
        if (members) members.push(d);
        else groups.set(tgid, [d]);
      }
      if (!groups.size && !noGroupLogged && !sleeper.stopped)
        log(
          'group talk: no simulated terminal is in a talk group yet (a group of their cluster numbers makes them talk)',
        );
      noGroupLogged ||= !groups.size;
      await Promise.all([...groups].map(([tgid, members]) => talkIn(tgid, members)));
    }
    // said once: a fleet without working ffmpeg keeps running and listening
    if (broken && !sleeper.stopped) log(`group talk: no audio (${broken}); the terminals only listen`);
  }

  // evidence: each camera records a clip now and then and uploads it; a fleet-wide gate keeps the
  // machine's load to a couple of ffmpeg runs and uploads at a time
  const recordEvery = options.recordEveryS ?? null;
  const gate = new Gate(options.recordConcurrency ?? 2);
  const stopUploads = new AbortController();
  let recorderBroken = false;
  async function evidenceLoop(d: SimDevice, every: [number, number]): Promise<void> {
    const ev = d.evidence!;
    // a queue left by an earlier run goes within a minute; new clips start spread over one interval
    let waitS = ev.pending ? between(5, 60) : between(0, every[1]);
    while (!sleeper.stopped) {
      await sleeper.sleep(waitS * 1000);
      waitS = between(...every);
      if (sleeper.stopped || d.killed) continue;
      await gate.run(async () => {
        if (sleeper.stopped) return;
        // a camera records while out of coverage too, and uploads once back
        if (!recorderBroken)
          await ev.record().catch((err: unknown) => {
            if (!(err instanceof RecorderError)) return fail(err);
            recorderBroken = true;
            log(`evidence: no clips can be recorded (${err.message}); queued clips are still sent`);
          });
        if (!d.online || Date.now() < d.offlineUntil || !d.client.loggedIn || sleeper.stopped) return;
        await ev.send().catch(async (err: unknown) => {
          if (sleeper.stopped) return;
          if (err instanceof EvidenceUploadError && err.status === 401) await d.client.login().catch(fail);
          else fail(err);
        });
      });
    }
  }
  if (recordEvery) {
    const root = options.evidenceDir ?? evidenceRoot(options.server);
    for (const d of devices)
      d.evidence = new CameraEvidence({
        identity: d.identity,
        dir: join(root, d.identity.hostbody),
        target: { server: options.server, authorization: () => d.client.bearer, signal: stopUploads.signal },
        random,
        ffmpeg: fleetFfmpeg,
        onRefused: (filename, reason) => log(`evidence: ${d.identity.hostbody} ${filename} refused: ${reason}`),
      });
    log(
      `evidence: each camera records a clip every ${recordEvery[0]}-${recordEvery[1]} s, ${options.recordConcurrency ?? 2} at a time, queued in ${root}`,
    );
  }

  const loops = devices.flatMap((d) => [uploadLoop(d), ...(withCommands ? [commandLoop(d)] : [])]);
  if ((options.terminals ?? true) && (options.talk ?? true) && talkEvery) loops.push(talkLoop(talkEvery));
  if (recordEvery) for (const d of devices) loops.push(evidenceLoop(d, recordEvery));
  if ((options.facesPerMin ?? 0) > 0) loops.push(aiLoop('face', options.facesPerMin!));
  if ((options.platesPerMin ?? 0) > 0) loops.push(aiLoop('plate', options.platesPerMin!));
  const refresh = setInterval(() => {
    stats.online = devices.filter((d) => d.online && !d.killed).length;
    stats.killed = devices.filter((d) => d.killed).length;
    let online = 0;
    let sent = 0;
    let received = 0;
    let answered = 0;
    const talk = { talkBursts: 0, talkFramesSent: 0, talkFramesHeard: 0, talkFramesLost: 0 };
    for (const d of devices) {
      if (!d.terminal) continue;
      if (d.terminal.loggedOn) online += 1;
      sent += d.terminal.stats.imSent;
      received += d.terminal.stats.imReceived;
      answered += d.terminal.stats.imAnswered;
      const { talked, framesHeard, framesLost } = d.terminal.talkStats;
      talk.talkBursts += talked.bursts;
      talk.talkFramesSent += talked.framesSent;
      talk.talkFramesHeard += framesHeard;
      talk.talkFramesLost += framesLost;
    }
    Object.assign(stats, { terminalsOnline: online, imSent: sent, imReceived: received, imAnswered: answered }, talk);
    const clips = { clipsRecorded: 0, clipsUploaded: 0, clipsQueued: 0 };
    for (const d of devices) {
      if (!d.evidence) continue;
      clips.clipsRecorded += d.evidence.recorded;
      clips.clipsUploaded += d.evidence.stored + d.evidence.duplicates;
      clips.clipsQueued += d.evidence.pending;
    }
    Object.assign(stats, clips);
  }, 1000);

  const stop = async () => {
    clearInterval(refresh);
    for (const d of devices) d.terminal?.stop();
    sleeper.stop();
    stopUploads.abort();
    transport.close();
    await Promise.allSettled(loops);
    // once no command can start one any more
    await Promise.allSettled(devices.map((d) => d.camera?.stop()));
  };
  return Object.assign(stop, { stats });
}
