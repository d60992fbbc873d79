import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (packages/simulator/src -> ../../..). */
export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

/** `1-5s`, `2s`, `500ms-2s`, `1-5` (seconds) -> [min, max] seconds. */
export function parseInterval(text: string): [number, number] {
  const m = /^\s*(\d+(?:\.\d+)?)(ms|s)?\s*(?:-\s*(\d+(?:\.\d+)?)(ms|s)?)?\s*$/.exec(text);
  if (!m) throw new Error(`--interval: "${text}" is not an interval such as 1-5s`);
  const unitOf = (u: string | undefined, fallback: string | undefined) => ((u ?? fallback ?? 's') === 'ms' ? 0.001 : 1);
  const lo = Number(m[1]) * unitOf(m[2], m[4]);
  const hi = m[3] === undefined ? lo : Number(m[3]) * unitOf(m[4], undefined);
  if (!(lo > 0) || hi < lo) throw new Error(`--interval: "${text}" must be positive with min <= max`);
  return [lo, hi];
}

/**
 * The provisioning key: the given one, else env DEVICE_PROVISION_KEY, else the file the demo
 * server writes, DATA_DIR/device-provision.key (DATA_DIR from the environment or ./data of the
 * repository).
 */
export function findProvisionKey(given?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (given) return given;
  if (env.DEVICE_PROVISION_KEY) return env.DEVICE_PROVISION_KEY;
  const dataDir = resolve(REPO_ROOT, env.DATA_DIR || 'data');
  const file = resolve(dataDir, 'device-provision.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  throw new Error(
    `no device provisioning key: pass --provision-key, set DEVICE_PROVISION_KEY, or start the server in demo mode (it writes ${file})`,
  );
}
