import { join } from 'node:path';
import {
  Api,
  WORKSTATION_HEARTBEAT_S,
  WORKSTATION_UPLOAD_PATH,
  type WorkstationHeartbeatAnswer,
  type WorkstationLoginAnswer,
  type WorkstationProvisionAnswer,
} from '@bwc/protocol';
import { DeviceApiError, Transport } from '../client';
import { CameraEvidence, type Gate } from '../evidence/camera-evidence';
import type { ClipKind } from '../evidence/recorder';

/**
 * A simulated docking workstation (采集工作站): provisioned with the device provisioning key
 * (`workstationProvision`, station of the first root unit when no unit code is given), logged in
 * with its code and secret, a heartbeat every WORKSTATION_HEARTBEAT_S naming the cameras docked
 * now. Cameras dock in turn: while one is docked, the station takes its recordings (clips made
 * with ffmpeg, as the camera records them) and uploads them at WORKSTATION_UPLOAD_PATH with its
 * own token and the camera's `hostbody`, then the camera leaves and the next one docks.
 */

export interface WorkstationOptions {
  server: string;
  provisionKey: string;
  code: string;
  name: string;
  /** 12-digit unit code; default the first root unit (every camera is of its units) */
  unitBh?: string;
  /** cameras that dock in turn (they must exist on the server) */
  cameras: { hostbody: string; hostname: string }[];
  /** the station's folder: one queue per camera below it */
  dir: string;
  /** how long a camera stays docked, ms (default 60 s) */
  dockMs?: number;
  /** pause between two cameras, ms (default 5 s) */
  gapMs?: number;
  /** clips a camera hands over each time it docks (default 1) */
  clipsPerDock?: number;
  /** clip kind and length (default: the recorder's choice) */
  clipKind?: ClipKind;
  clipSeconds?: number;
  heartbeatMs?: number;
  chunkBytes?: number;
  /** the fleet's gate: only a few recordings or uploads at once */
  gate?: Gate;
  ffmpeg?: string | null;
  log?: (line: string) => void;
}

export interface WorkstationStats {
  heartbeats: number;
  docks: number;
  recorded: number;
  stored: number;
  duplicates: number;
  refused: number;
  errors: number;
  lastError: string;
}

export class SimWorkstation {
  readonly stats: WorkstationStats = {
    heartbeats: 0,
    docks: 0,
    recorded: 0,
    stored: 0,
    duplicates: 0,
    refused: 0,
    errors: 0,
    lastError: '',
  };
  /** the hostbodies docked now (what the heartbeat says) */
  docked: string[] = [];
  private readonly transport: Transport;
  private secret = '';
  private token = '';
  private readonly stop = new AbortController();
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private loop: Promise<void> | null = null;
  private readonly evidence = new Map<string, CameraEvidence>();

  constructor(private readonly options: WorkstationOptions) {
    this.transport = new Transport({ server: options.server, maxSockets: 4 });
  }

  private log(line: string): void {
    this.options.log?.(`workstation ${this.options.code}: ${line}`);
  }

  private failed(err: unknown): void {
    this.stats.errors += 1;
    this.stats.lastError = (err as Error).message;
    if (!this.stop.signal.aborted) this.log(`error: ${(err as Error).message}`);
  }

  /** Provision (a new secret each start) and log in. */
  async login(): Promise<void> {
    if (!this.secret) {
      const answer = await this.transport.request<WorkstationProvisionAnswer>(
        'POST',
        Api.workstationProvision.path,
        {
          code: this.options.code,
          name: this.options.name,
          ...(this.options.unitBh ? { unit_bh: this.options.unitBh } : {}),
        },
        { authorization: `Bearer ${this.options.provisionKey}` },
      );
      this.secret = answer.secret;
    }
    const answer = await this.transport.request<WorkstationLoginAnswer>('POST', Api.workstationLogin.path, {
      code: this.options.code,
      secret: this.secret,
    });
    this.token = answer.token;
  }

  /** One heartbeat with the docked cameras; a refused token logs in again. */
  async heartbeat(): Promise<WorkstationHeartbeatAnswer> {
    const send = () =>
      this.transport.request<WorkstationHeartbeatAnswer>(
        'POST',
        Api.workstationHeartbeat.path,
        { docked: this.docked },
        { authorization: `Bearer ${this.token}` },
      );
    let answer: WorkstationHeartbeatAnswer;
    try {
      answer = await send();
    } catch (err) {
      if (!(err instanceof DeviceApiError) || err.code !== 401) throw err;
      await this.login();
      answer = await send();
    }
    this.stats.heartbeats += 1;
    return answer;
  }

  private cameraEvidence(camera: { hostbody: string; hostname: string }): CameraEvidence {
    let ev = this.evidence.get(camera.hostbody);
    if (!ev) {
      ev = new CameraEvidence({
        identity: camera,
        dir: join(this.options.dir, camera.hostbody),
        ...(this.options.ffmpeg === undefined ? {} : { ffmpeg: this.options.ffmpeg }),
        target: {
          server: this.options.server,
          authorization: () => `Bearer ${this.token}`,
          path: WORKSTATION_UPLOAD_PATH,
          metadata: { hostbody: camera.hostbody },
          chunkBytes: this.options.chunkBytes,
          signal: this.stop.signal,
        },
        onRefused: (filename, reason) => this.log(`${camera.hostbody} ${filename} refused: ${reason}`),
      });
      this.evidence.set(camera.hostbody, ev);
    }
    return ev;
  }

  /** A camera docks: its clips are taken and uploaded, then it leaves. */
  async dock(camera: { hostbody: string; hostname: string }): Promise<void> {
    const gate = this.options.gate;
    const ev = this.cameraEvidence(camera);
    const before = { stored: ev.stored, duplicates: ev.duplicates, refused: ev.refused };
    this.docked = [camera.hostbody];
    this.stats.docks += 1;
    try {
      const refused = (await this.heartbeat()).refused;
      if (refused.length) this.log(`the server refuses files of ${refused.join(', ')}`);
      for (let i = 0; i < (this.options.clipsPerDock ?? 1) && !this.stop.signal.aborted; i++) {
        const record = () => ev.record(this.options.clipKind, this.options.clipSeconds);
        await (gate ? gate.run(record) : record());
        this.stats.recorded += 1;
      }
      if (!this.stop.signal.aborted) await (gate ? gate.run(() => ev.send()) : ev.send());
    } catch (err) {
      this.failed(err);
    } finally {
      this.stats.stored += ev.stored - before.stored;
      this.stats.duplicates += ev.duplicates - before.duplicates;
      this.stats.refused += ev.refused - before.refused;
    }
  }

  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.stop.signal.aborted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.stop.signal.addEventListener('abort', done, { once: true });
    });
  }

  /** Log in, heartbeat on a timer, and dock the cameras in turn until stopped. */
  async start(): Promise<void> {
    await this.login();
    await this.heartbeat();
    this.heartbeatTimer = setInterval(
      () => void this.heartbeat().catch((err: unknown) => this.failed(err)),
      this.options.heartbeatMs ?? WORKSTATION_HEARTBEAT_S * 1000,
    );
    this.log(`online, ${this.options.cameras.length} cameras dock in turn`);
    const cameras = this.options.cameras;
    this.loop = (async () => {
      for (let turn = 0; cameras.length && !this.stop.signal.aborted; turn++) {
        const camera = cameras[turn % cameras.length]!;
        const started = Date.now();
        await this.dock(camera);
        await this.wait(Math.max(0, (this.options.dockMs ?? 60_000) - (Date.now() - started)));
        this.docked = [];
        await this.heartbeat().catch((err: unknown) => this.failed(err));
        await this.wait(this.options.gapMs ?? 5_000);
      }
    })();
  }

  async close(): Promise<void> {
    this.stop.abort();
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    await this.loop;
    this.transport.close();
  }
}

export interface WorkstationsOptions {
  count: number;
  server: string;
  provisionKey: string;
  /** station codes are <prefix>-WS1, -WS2... */
  prefix: string;
  /** the fleet's cameras: station i docks cameras i, i + count, ... (at most `perStation`) */
  cameras: { hostbody: string; hostname: string }[];
  perStation?: number;
  dir: string;
  dockMs?: number;
  gate?: Gate;
  log?: (line: string) => void;
}

/** Start `count` stations over the fleet's cameras; answers them and their stop. */
export async function startWorkstations(
  options: WorkstationsOptions,
): Promise<{ stations: SimWorkstation[]; close: () => Promise<void> }> {
  const stations: SimWorkstation[] = [];
  const per = options.perStation ?? 2;
  for (let i = 0; i < options.count; i++) {
    const cameras = options.cameras.filter((_c, j) => j % options.count === i).slice(0, per);
    const code = `${options.prefix}-WS${i + 1}`;
    const station = new SimWorkstation({
      server: options.server,
      provisionKey: options.provisionKey,
      code,
      name: `${options.prefix} workstation ${i + 1}`,
      cameras,
      dir: join(options.dir, code),
      dockMs: options.dockMs,
      gate: options.gate,
      log: options.log,
    });
    await station.start();
    stations.push(station);
  }
  return { stations, close: async () => void (await Promise.all(stations.map((s) => s.close()))) };
}
