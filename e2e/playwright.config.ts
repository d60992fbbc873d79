import { defineConfig } from '@playwright/test';

const port = process.env.E2E_PORT || '18084';
/** runs on another port (parallel runs while developing) keep their own output folder */
const suffix = port === '18084' ? '' : `-${port}`;
export const TEST_CAPTCHA = process.env.TEST_CAPTCHA || '1234';
/** device provisioning key of the test server, so that specs can run the simulator against it */
export const DEVICE_PROVISION_KEY = process.env.DEVICE_PROVISION_KEY || 'e2e-device-provisioning-key-0001';
/** AI engine token of the test server (AI_ENGINE_TOKEN), so that specs can post face and plate results */
export const AI_ENGINE_TOKEN = process.env.AI_ENGINE_TOKEN || 'e2e-ai-engine-token-0001';

/**
 * End to end against the real server (apps/server) serving the built console, in Debian's
 * Chromium. One worker: the specs share one server and its demo accounts (a second login of an
 * account forces the first off, so specs must not race on the same account).
 */
export default defineConfig({
  testDir: './specs',
  outputDir: `./artifacts/test-output${suffix}`,
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  // limits are generous on purpose: CI shares 2 cores with other builds, where a page that loads in
  // 1 s alone once took more than 10 s; every wait follows a state, so a long limit costs nothing
  // when things work
  timeout: 180_000,
  expect: { timeout: 30_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'zh-CN',
    viewport: { width: 1440, height: 900 },
    // as a user who asked the system for less motion: antd's dialogs, menus and toasts then show
    // at once, without their opening animation. A click on a dialog still zooming in was lost now
    // and then on a busy machine (pressUntilClosed), once on a form's save (CI of adc5780,
    // evidence). login-shell checks that the animations run without this setting.
    reducedMotion: 'reduce',
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
      ],
    },
  },
  projects: [{ name: 'chromium' }],
  webServer: {
    command: 'node serve.mjs',
    url: `http://127.0.0.1:${port}/`,
    env: { E2E_PORT: port, TEST_CAPTCHA, DEVICE_PROVISION_KEY, AI_ENGINE_TOKEN },
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: 'pipe',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
