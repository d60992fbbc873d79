import type { Envelope, GbPlayerConfig, GbSettings } from '@bwc/protocol';
import { GbSimHub, type GbDevice, type GbDeviceOptions } from '@bwc/simulator/gb';
import { expect, type Locator, type Page } from '@playwright/test';
import { Api } from '../../packages/protocol/src/endpoints';

/**
 * GB28181 set-up shared by the GB specs: GB mode switched on through the settings API on a SIP port
 * of the spec's own (e2e servers side by side must not fight over 5060), a hub of simulated GB
 * devices that register where gbconfig/get says, and the settings put back afterwards.
 */

/** The data of a 200 envelope (anything else fails the test with the server's message). */
export async function data<T>(res: { json(): Promise<unknown> }): Promise<T> {
  const body = (await res.json()) as Envelope<T>;
  expect(body.code, body.msg).toBe(200);
  return body.data;
}

export async function gbSettings(page: Page): Promise<GbSettings> {
  return data<GbSettings>(await page.request.get(`${Api.settingsGet.path}?type=gbconfig`));
}

export async function saveGb(page: Page, settings: GbSettings): Promise<void> {
  await data(await page.request.post(Api.settingsUpdate.path, { data: { type: 'gbconfig', ...settings } }));
}

/** The SIP port of a spec: 20,000 + E2E_PORT % 10,000 + the spec's own offset. */
export function gbSipPort(offset: number): number {
  return 20_000 + (Number(process.env.E2E_PORT || '18084') % 10_000) + offset;
}

export interface GbSession {
  /** the GB settings as they were before (restored by `close`) */
  saved: GbSettings;
  sip: GbPlayerConfig['ocx_config'];
  hub: GbSimHub;
  /** a simulated device registering with the server's platform (not started) */
  device(options: Omit<GbDeviceOptions, 'server' | 'password'>): GbDevice;
  /** stops the devices and puts the GB settings back */
  close(): Promise<void>;
}

/**
 * GB mode on with the SIP platform on `sipPort`, waited for until gbconfig/get says it runs, and a
 * started hub of simulated devices. Call `close` in a finally.
 */
export async function openGb(page: Page, sipPort: number): Promise<GbSession> {
  const saved = await gbSettings(page);
  await saveGb(page, { ...saved, gb_mode: 1, LocalPort: sipPort });
  let hub: GbSimHub | null = null;
  try {
    await expect
      .poll(async () => (await data<GbPlayerConfig>(await page.request.get(Api.gbConfig.path))).running, {
        message: 'gbconfig/get running: the server serves GB devices',
        timeout: 30_000,
      })
      .toBe(1);
    const { ocx_config: sip } = await data<GbPlayerConfig>(await page.request.get(Api.gbConfig.path));
    expect(sip.ocxPort).toBe(sipPort);
    const started = new GbSimHub({ host: '127.0.0.1' });
    hub = started;
    await started.start();
    return {
      saved,
      sip,
      hub: started,
      device: (options) =>
        started.device({
          ...options,
          password: saved.DevicePassword,
          server: { id: sip.ocxSip, domain: sip.SipDomain, host: sip.ocxIp || '127.0.0.1', port: sip.ocxPort },
        }),
      async close() {
        await started.stop();
        await saveGb(page, saved);
      },
    };
  } catch (err) {
    await hub?.stop();
    await saveGb(page, saved);
    throw err;
  }
}

/** Pixels that differ between two frames of the video under `view`, read 1.5 s apart. */
export async function moving(view: Locator): Promise<number> {
  return view.evaluate(async (root) => {
    const video = root.querySelector('video') as HTMLVideoElement;
    const grab = () => {
      const canvas = document.createElement('canvas');
      canvas.width = 160;
      canvas.height = 90;
      const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
      ctx.drawImage(video, 0, 0, canvas.width, canvas.height);
      return ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    };
    const first = grab();
    await new Promise((r) => setTimeout(r, 1500));
    const next = grab();
    let changed = 0;
    for (let p = 0; p < next.length; p += 4) if (Math.abs(next[p]! - first[p]!) > 24) changed += 1;
    return changed;
  });
}
