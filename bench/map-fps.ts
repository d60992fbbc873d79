/**
 * Dispatch map benchmark (issue 4, section 8, second figure).
 *
 *   npx tsx bench/map-fps.ts --server http://127.0.0.1:18088 --web http://127.0.0.1:5178 \
 *     --provision-key "$(cat DATA_DIR/device-provision.key)" [--devices 10000] [--seconds 10]
 *
 * Needs a running server (started with NODE_ENV=test TEST_CAPTCHA=1234 so that the bench can log
 * in) and the console (Vite on --web, or the server itself serving WEB_DIST). It:
 * 1. runs the REAL simulator (packages/simulator CLI, device API only) with --devices devices
 *    uploading every 5 s;
 * 2. opens /dispatch/emergency in headless Chromium (software WebGL), waits until the map's
 *    device source holds the fleet;
 * 3. PANNING: drags the map back and forth for --seconds while counting requestAnimationFrame
 *    callbacks -> frames per second;
 * 4. UPDATES: records long tasks (PerformanceObserver 'longtask', > 50 ms) over one full refresh
 *    period (MAP_REFRESH_MS, the map applies only the differences) -> count and longest.
 * Prints the figures; no assertion.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { MAP_REFRESH_MS } from '@bwc/protocol';

const { values } = parseArgs({
  options: {
    server: { type: 'string', default: 'http://127.0.0.1:18088' },
    web: { type: 'string', default: 'http://127.0.0.1:5178' },
    'provision-key': { type: 'string' },
    devices: { type: 'string', default: '10000' },
    seconds: { type: 'string', default: '10' },
  },
});
const devices = Number(values.devices);
const seconds = Number(values.seconds);
if (!values['provision-key'])
  throw new Error('--provision-key is required (DATA_DIR/device-provision.key of the server)');
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const say = (line: string) => console.log(`[map-fps ${new Date().toISOString().slice(11, 19)}] ${line}`);

const sim = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    'packages/simulator/src/cli.ts',
    '--devices',
    String(devices),
    '--server',
    values.server!,
    '--provision-key',
    values['provision-key']!,
    '--interval',
    '5-5s',
    '--prefix',
    'BENCH',
  ],
  { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
);
await new Promise<void>((resolve, reject) => {
  sim.stdout.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    if (text.includes('running')) resolve();
  });
  sim.on('exit', (code) => reject(new Error(`simulator exited ${code}`)));
});
say(`simulator: ${devices} devices uploading every 5 s`);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  args: ['--no-sandbox', '--headless'],
});
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${values.web}/login`);
  await page.getByRole('textbox').first().fill('admin');
  await page.locator('input[type=password]').fill('Admin@123');
  await page.locator('input#captcha_code').fill(process.env.TEST_CAPTCHA || '1234');
  await page.locator('button[type=submit]').click();
  await page.waitForURL(/\/menu/);
  await page.goto(`${values.web}/dispatch/emergency`);
  const count = () =>
    page.evaluate(async () => {
      const map = (
        globalThis as unknown as {
          __bwcMap?: { getSource(id: string): { getData(): Promise<{ features: unknown[] }> } | undefined };
        }
      ).__bwcMap;
      const source = map?.getSource('bwc-devices');
      return source ? (await source.getData()).features.length : 0;
    });
  const started = Date.now();
  while ((await count()) < devices * 0.9) {
    if (Date.now() - started > 180_000) throw new Error(`the map holds ${await count()} devices after 3 minutes`);
    await page.waitForTimeout(2_000);
  }
  say(`map holds ${await count()} devices after ${((Date.now() - started) / 1000).toFixed(1)} s`);

  await page.evaluate(() => {
    // page context (DOM); the bench's own types are Node's
    const w = globalThis as unknown as {
      __longTasks: number[];
      PerformanceObserver: new (cb: (list: { getEntries(): { duration: number }[] }) => void) => {
        observe(options: object): void;
      };
    };
    w.__longTasks = [];
    new w.PerformanceObserver((list) => list.getEntries().forEach((e) => w.__longTasks.push(e.duration))).observe({
      type: 'longtask',
      buffered: false,
    });
  });

  // panning
  const box = (await page.getByTestId('dispatch-map').boundingBox())!;
  // a string, so that the bundler's helpers (named functions) do not reach the page
  await page.evaluate(
    '(() => { window.__frames = 0; window.__counting = true; const tick = () => { if (!window.__counting) return; window.__frames++; requestAnimationFrame(tick); }; requestAnimationFrame(tick); })()',
  );
  const t0 = Date.now();
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  let direction = 1;
  while (Date.now() - t0 < seconds * 1000) {
    await page.mouse.move(cx, cy);
    await page.mouse.down();
    for (let i = 1; i <= 20; i++) await page.mouse.move(cx + direction * i * 15, cy + direction * i * 6);
    await page.mouse.up();
    direction = -direction;
  }
  const elapsed = (Date.now() - t0) / 1000;
  const frames = await page.evaluate(() => {
    const w = globalThis as unknown as { __frames: number; __counting: boolean };
    w.__counting = false;
    return w.__frames;
  });
  const panLong = await page.evaluate(() => (globalThis as unknown as { __longTasks: number[] }).__longTasks.splice(0));
  say(
    `panning: ${(frames / elapsed).toFixed(1)} frames/s over ${elapsed.toFixed(1)} s (${frames} frames); long tasks while panning: ${panLong.length}, longest ${Math.max(0, ...panLong).toFixed(0)} ms`,
  );

  // updates without interaction over one refresh period
  await page.waitForTimeout(MAP_REFRESH_MS + 2_000);
  const updLong = await page.evaluate(() => (globalThis as unknown as { __longTasks: number[] }).__longTasks.splice(0));
  say(
    `updates: long tasks over ${(MAP_REFRESH_MS + 2_000) / 1000} s idle with ${devices} live devices: ${updLong.length}, longest ${Math.max(0, ...updLong).toFixed(0)} ms`,
  );
  say(
    'measured in headless Chromium with software WebGL on this machine; goal >= 50 frames/s and no long task over 50 ms from updates',
  );
} finally {
  await browser.close();
  sim.kill('SIGTERM');
}
