/**
 * GB28181 live video in Chromium (issue 16 section 4): from the console's videopatrols/gbplay
 * request to the first decoded frame in the page, goal <= 1 s on loopback.
 *
 *   npx tsx bench/gb-live.ts [--rounds 5] [--idle 5]
 *
 * The real server (bench/support.ts startServer, a temporary DATA_DIR, LIVE_IDLE_S=--idle), GB mode
 * switched on through the settings API with a free SIP port, one simulated GB device
 * (@bwc/simulator/gb, 2 channels, ffmpeg H.264 in PS over RTP/UDP) registered with it. Each cold
 * round: gbplay for channel 1 (INVITE), an mpegts.js player (node_modules/mpegts.js, the console's
 * player library, with the LivePlayer's MPEGTS_LIVE_CONFIG and hasAudio false as GB channels use
 * it) on the answer's WS-FLV path in headless Chromium, time to the first frame with a picture
 * (requestVideoFrameCallback, stamped in the page); the player closes and the round waits for the
 * server's idle stop (the device's stream stopped) so the next round INVITEs again. Anchor, same
 * run: a second viewer of a channel already playing (gbplay answers without an INVITE and the
 * gateway's GOP cache feeds it): the browser + player + API floor.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Envelope, GbDevice as GbDeviceRow, GbPlayAnswer, GbPlayerConfig, GbSettings } from '@bwc/protocol';
import { GbSimHub, type GbDevice } from '@bwc/simulator/gb';
import { chromium, type Browser, type Page } from '@playwright/test';
import { MPEGTS_LIVE_CONFIG } from '../apps/web/src/features/video/player/catchUp';
import { Api } from '../packages/protocol/src/endpoints';
import { DEMO } from '../apps/server/test/helpers';
import { CAPTCHA, httpLogin, median, quantile, sleep, track, until } from './live-support';
import { ROOT, freePort, prepareDataDir, startServer } from './support';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}
const ROUNDS = arg('rounds', 5);
const IDLE_S = arg('idle', 5);
const GOAL_MS = 1000;
const DEVICE_ID = '34020000001320000077';
const load = () =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');

const PAGE_JS = String.raw`
(() => {
  const CONFIG = ${JSON.stringify(MPEGTS_LIVE_CONFIG)};
  const players = new Map();
  let next = 1;
  function play(url, hasAudio) {
    const id = next++;
    const video = document.createElement('video');
    video.muted = true;
    video.autoplay = true;
    video.playsInline = true;
    video.style.width = '640px';
    video.style.height = '360px';
    document.body.appendChild(video);
    const p = { video, createdAt: Date.now(), firstFrameAt: 0, errors: [] };
    const player = mpegts.createPlayer({ type: 'flv', isLive: true, url, hasAudio }, CONFIG);
    p.player = player;
    player.on(mpegts.Events.ERROR, (type, detail) => p.errors.push(type + ' ' + detail));
    player.attachMediaElement(video);
    player.load();
    Promise.resolve(player.play()).catch(() => undefined);
    const onFrame = () => {
      if (video.videoWidth > 0) p.firstFrameAt = Date.now();
      else video.requestVideoFrameCallback(onFrame);
    };
    video.requestVideoFrameCallback(onFrame);
    players.set(id, p);
    return id;
  }
  function info(id) {
    const p = players.get(id);
    return { createdAt: p.createdAt, firstFrameAt: p.firstFrameAt, errors: p.errors, width: p.video.videoWidth };
  }
  function close(id) {
    const p = players.get(id);
    if (!p) return;
    try {
      p.player.pause();
      p.player.unload();
      p.player.detachMediaElement();
      p.player.destroy();
    } catch {
      /* already gone */
    }
    p.video.remove();
    players.delete(id);
  }
  window.gbBench = { play, info, close };
})();
`;

interface PlayerInfo {
  createdAt: number;
  firstFrameAt: number;
  errors: string[];
  width: number;
}
interface PageGlobal {
  gbBench: { play(url: string, hasAudio: boolean): number; info(id: number): PlayerInfo; close(id: number): void };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bwc-bench-gb-live-'));
  let browser: Browser | null = null;
  let hub: GbSimHub | null = null;
  try {
    const app = await prepareDataDir(dataDir, { workstations: 20, devices: 100 }, CAPTCHA);
    await app.close();
    const port = await freePort();
    const sipPort = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const server = track(
      await startServer(dataDir, port, [], { NODE_ENV: 'test', TEST_CAPTCHA: CAPTCHA, LIVE_IDLE_S: String(IDLE_S) }),
    );
    server.stdout?.resume();
    const token = await httpLogin(base, DEMO.admin.username, DEMO.admin.password);
    const api = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const env = (await res.json()) as Envelope<T>;
      if (env.code !== 200) throw new Error(`${path}: ${env.code} ${env.msg}`);
      return env.data;
    };

    // ---- GB mode on with a SIP port of this run; the device registers and its catalogue is stored
    const saved = await api<GbSettings>('GET', `${Api.settingsGet.path}?type=gbconfig`);
    await api('POST', Api.settingsUpdate.path, { type: 'gbconfig', ...saved, gb_mode: 1, LocalPort: sipPort });
    await until(
      'the SIP platform runs',
      async () => (await api<GbPlayerConfig>('GET', Api.gbConfig.path)).running === 1,
    );
    const { ocx_config: sip } = await api<GbPlayerConfig>('GET', Api.gbConfig.path);
    hub = new GbSimHub({ host: '127.0.0.1' });
    await hub.start();
    const device: GbDevice = hub.device({
      deviceId: DEVICE_ID,
      name: 'bench GB device',
      password: saved.DevicePassword,
      channels: 2,
      server: { id: sip.ocxSip, domain: sip.SipDomain, host: '127.0.0.1', port: sip.ocxPort },
    });
    const streaming = new Set<string>();
    let invites = 0;
    device.on('invite', () => (invites += 1));
    device.on('streaming', (e) => streaming.add(e.channelId));
    device.on('streamStopped', (e) => streaming.delete(e.channelId));
    if (!(await device.start())) throw new Error('the simulated GB device did not register');
    await until('the device and its 2 channels stored', async () => {
      const page = await api<{ list: GbDeviceRow[] }>('GET', `${Api.gbDeviceList.path}?key=${DEVICE_ID}`);
      return page.list.some((d) => d.devgbid === DEVICE_ID && d.channel_count === 2 && d.lineon === 1);
    });
    const [channel, other] = device.channelIds as [string, string];
    console.log(
      `server :${port}, SIP :${sipPort}, device ${DEVICE_ID} registered with channels ${channel}, ${other}; LIVE_IDLE_S ${IDLE_S}; load ${load()}`,
    );

    // ---- the page
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'],
    });
    const page: Page = await browser.newPage({ viewport: { width: 800, height: 500 } });
    page.on('pageerror', (e) => console.log(`  page error: ${e.message}`));
    await page.setContent('<!doctype html><html><body style="margin:0;background:#111"></body></html>');
    await page.addScriptTag({ path: join(ROOT, 'node_modules/mpegts.js/dist/mpegts.js') });
    await page.addScriptTag({ content: PAGE_JS });

    /** gbplay, then a player on its WS path; ms from the gbplay request to the first frame. */
    const round = async (ch: string): Promise<{ ms: number; api: number; id: number; errors: string[] }> => {
      const sentAt = Date.now();
      const answer = await api<GbPlayAnswer>('POST', Api.gbPlay.path, { channel: ch });
      const answeredAt = Date.now();
      // sound as the console takes it: gbplay's has_audio (the simulated device sends G.711A)
      const id = await page.evaluate(
        ({ url, audio }) => (globalThis as unknown as PageGlobal).gbBench.play(url, audio),
        { url: `ws://127.0.0.1:${port}${answer.ws}`, audio: answer.has_audio === 1 },
      );
      let info: PlayerInfo | null = null;
      await until(
        'first frame',
        async () => {
          info = await page.evaluate((i) => (globalThis as unknown as PageGlobal).gbBench.info(i), id);
          return info.firstFrameAt > 0;
        },
        30_000,
      ).catch(() => undefined);
      const i = info as PlayerInfo | null;
      return {
        ms: i?.firstFrameAt ? i.firstFrameAt - sentAt : NaN,
        api: answeredAt - sentAt,
        id,
        errors: i?.errors ?? [],
      };
    };
    const close = (id: number) => page.evaluate((i) => (globalThis as unknown as PageGlobal).gbBench.close(i), id);

    // ---- cold: every round INVITEs
    console.log(`cold (gbplay -> INVITE -> device ffmpeg -> first frame in the page), ${ROUNDS} rounds:`);
    const cold: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      if (streaming.size) throw new Error('a stream still runs before a cold round');
      const x = await round(channel);
      if (Number.isFinite(x.ms)) cold.push(x.ms);
      console.log(
        `  #${r + 1}: ${Number.isFinite(x.ms) ? `${x.ms} ms` : `no frame in 30 s ${x.errors.join('; ')}`} (gbplay answered in ${x.api} ms), load ${load()}`,
      );
      await close(x.id);
      const stopAt = Date.now();
      await until('the idle stop (BYE)', () => streaming.size === 0, (IDLE_S + 20) * 1000);
      if (r === 0) console.log(`  (idle stop ${((Date.now() - stopAt) / 1000).toFixed(1)} s after the viewer left)`);
    }

    const coldInvites = invites;
    // ---- anchor: a second viewer of a channel already playing (no INVITE)
    console.log(`anchor (second viewer of a playing channel: gbplay -> first frame, no INVITE), ${ROUNDS} rounds:`);
    const first = await round(other);
    if (!Number.isFinite(first.ms))
      throw new Error(`the anchor's first viewer got no frame: ${first.errors.join('; ')}`);
    const warm: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const x = await round(other);
      if (Number.isFinite(x.ms)) warm.push(x.ms);
      console.log(
        `  #${r + 1}: ${Number.isFinite(x.ms) ? `${x.ms} ms` : `no frame in 30 s ${x.errors.join('; ')}`} (gbplay answered in ${x.api} ms), load ${load()}`,
      );
      await close(x.id);
      await sleep(300);
    }
    await close(first.id);
    const anchorInvites = invites - coldInvites;

    const cm = median(cold);
    const wm = median(warm);
    console.log('');
    console.log(
      `cold: ${cold.length}/${ROUNDS} played, median ${cm} ms, p95 ${quantile(cold, 0.95)} ms, max ${Math.max(...cold)} ms`,
    );
    console.log(
      `anchor: ${warm.length}/${ROUNDS} played, median ${wm} ms, p95 ${quantile(warm, 0.95)} ms, max ${Math.max(...warm)} ms`,
    );
    console.log(
      `INVITEs received by the device: cold ${coldInvites} (of ${ROUNDS} rounds), anchor ${anchorInvites} (its first viewer's only)`,
    );
    console.log(`ratio cold / anchor (medians): ${(cm / wm).toFixed(2)}`);
    const met = cold.length === ROUNDS && quantile(cold, 0.95) <= GOAL_MS;
    console.log(
      `goal: INVITE to first frame <= ${GOAL_MS} ms (every round, p95): ${met ? 'met' : 'NOT met'}; load ${load()}`,
    );
  } finally {
    await browser?.close().catch(() => undefined);
    await hub?.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
