import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (packages/simulator/src -> ../../..). */
export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');

const UNIT_S: Record<string, number> = { ms: 0.001, s: 1, m: 60 };

/** `1-5s`, `2s`, `500ms-2s`, `2-4m`, `1-5` (seconds) -> [min, max] seconds; `flag` names the option in errors. */
export function parseInterval(text: string, flag = '--interval'): [number, number] {
  const m = /^\s*(\d+(?:\.\d+)?)(ms|s|m)?\s*(?:-\s*(\d+(?:\.\d+)?)(ms|s|m)?)?\s*$/.exec(text);
  if (!m) throw new Error(`${flag}: "${text}" is not an interval such as 1-5s`);
  const unitOf = (u: string | undefined, fallback: string | undefined) => UNIT_S[u ?? fallback ?? 's']!;
  const lo = Number(m[1]) * unitOf(m[2], m[4]);
  const hi = m[3] === undefined ? lo : Number(m[3]) * unitOf(m[4], undefined);
  if (!(lo > 0) || hi < lo) throw new Error(`${flag}: "${text}" must be positive with min <= max`);
  return [lo, hi];
}

/** --talk-every: an interval (`2-4m`), or `off` (terminals only listen) -> null. */
export function parseTalkEvery(text: string): [number, number] | null {
  if (/^\s*(off|0)\s*$/i.test(text)) return null;
  const every = parseInterval(text, '--talk-every');
  // a burst lasts up to 3 s and a group has one floor: rounds closer than 10 s would queue up
  if (every[0] < 10) throw new Error(`--talk-every: "${text}" must be at least 10 s apart, or off`);
  return every;
}

/**
 * --record-every: minutes between a camera's clips (`5`, `5-10`), or an interval with its unit
 * (`90s-3m`), or `off` -> null; at least 30 s apart.
 */
export function parseRecordEvery(text: string): [number, number] | null {
  if (/^\s*(off|0)\s*$/i.test(text)) return null;
  const unitless = /^[\d.\s-]+$/.test(text);
  const every = parseInterval(unitless ? `${text.trim()}m` : text, '--record-every');
  if (every[0] < 30) throw new Error(`--record-every: "${text}" must be at least 30 s apart, or off`);
  return every;
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

/** File of the AI engine token the server writes into DATA_DIR (unless AI_ENGINE_TOKEN is set). */
export const AI_TOKEN_FILE = 'ai-engine.token';

/**
 * The AI engine token for face and plate results: the given one, else env AI_ENGINE_TOKEN, else
 * DATA_DIR/ai-engine.token (written by the server at start); undefined when there is none yet.
 */
export function findAiToken(given?: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (given) return given;
  if (env.AI_ENGINE_TOKEN) return env.AI_ENGINE_TOKEN;
  const file = resolve(REPO_ROOT, env.DATA_DIR || 'data', AI_TOKEN_FILE);
  if (!existsSync(file)) return undefined;
  return readFileSync(file, 'utf8').trim() || undefined;
}

/** A rate per minute for `flag` (e.g. --faces-per-min): a number from 0 (off) to 600. */
export function parseRatePerMin(text: string, flag: string): number {
  const value = /^\s*\d+(\.\d+)?\s*$/.test(text) ? Number(text) : NaN;
  if (!(value >= 0 && value <= 600))
    throw new Error(`${flag}: "${text}" must be a number of results per minute from 0 to 600`);
  return value;
}

/** A chance per upload for `flag` (e.g. --im-rate): a number from 0 (never) to 1 (every upload). */
export function parseChance(text: string, flag: string): number {
  const value = /^\s*\d+(\.\d+)?(e-?\d+)?\s*$/i.test(text) ? Number(text) : NaN;
  if (!(value >= 0 && value <= 1)) throw new Error(`${flag}: "${text}" must be a chance from 0 to 1 (0.0015: rarely)`);
  return value;
}

/** A console-service websocket address for --console-url: ws:// or wss://. */
export function parseConsoleUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`--console-url: "${text}" is not an address such as ws://127.0.0.1:9080/`);
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:')
    throw new Error(`--console-url: "${text}" must start with ws:// or wss://`);
  return url.toString();
}
