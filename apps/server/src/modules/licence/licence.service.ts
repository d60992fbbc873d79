import { generateKeyPairSync, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LicencePayload } from '@bwc/protocol';
import type { Config } from '../../config';
import type { Db } from '../../db/connection';
import { Errors } from '../../http/errors';
import { daysLeft, issueLicenceCode, parsePublicKey, verifyLicenceCode, type LicenceRejection } from './licence-code';
import { getStoredLicence, storeLicence } from './licence.repository';
import { computeMacCode } from './mac-code';

export type LicenceStatus =
  | { state: 'valid'; code: string; payload: LicencePayload; expiresAt: Date; validDays: number }
  | { state: 'expired'; code: string; payload: LicencePayload | null; expiresAt: Date | null }
  | { state: 'unregistered' };

/** What the demo licence grants (DEMO=1). */
export const DEMO_LICENCE = { valid_days: 365, workstations: 10, devices: 500, customer: 'demo' } as const;

const REJECTION_KEYS: Record<LicenceRejection, string> = {
  malformed: 'errors.licence.malformed',
  forged: 'errors.licence.forged',
  wrongMachine: 'errors.licence.wrongMachine',
  expired: 'errors.licence.expired',
};

/** Demo vendor key pair in DATA_DIR/licence, created on first start. */
export function demoKeyPair(dataDir: string): { privateKey: KeyObject; publicKey: KeyObject; privateKeyFile: string } {
  const dir = join(dataDir, 'licence');
  const privateKeyFile = join(dir, 'demo-vendor-ed25519.pem');
  if (!existsSync(privateKeyFile)) {
    mkdirSync(dir, { recursive: true });
    const { privateKey } = generateKeyPairSync('ed25519');
    writeFileSync(privateKeyFile, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  }
  const privateKey = createPrivateKey(readFileSync(privateKeyFile, 'utf8'));
  return { privateKey, publicKey: createPublicKey(privateKey), privateKeyFile };
}

export class LicenceService {
  readonly macCode: string;
  private readonly trustedKeys: KeyObject[] = [];
  private readonly demoKey: KeyObject | null = null;

  constructor(
    private readonly db: Db,
    config: Config,
  ) {
    this.macCode = computeMacCode(config.dataDir, config.redisUrl !== undefined);
    if (config.licencePublicKey) this.trustedKeys.push(parsePublicKey(config.licencePublicKey));
    if (config.demo) {
      const pair = demoKeyPair(config.dataDir);
      this.trustedKeys.push(pair.publicKey);
      this.demoKey = pair.privateKey;
    }
  }

  /** The stored code re-verified now (a key change or the calendar can invalidate it). */
  async status(now: Date = new Date()): Promise<LicenceStatus> {
    const stored = await getStoredLicence(this.db);
    if (!stored) return { state: 'unregistered' };
    const check = verifyLicenceCode(stored.regist_code, this.trustedKeys, this.macCode, now);
    if (check.ok)
      return {
        state: 'valid',
        code: stored.regist_code,
        payload: check.payload,
        expiresAt: check.expiresAt,
        validDays: daysLeft(check.expiresAt, now),
      };
    if (check.reason === 'expired') {
      // verified as of the epoch only to read the payload back for the version dialog
      const past = verifyLicenceCode(stored.regist_code, this.trustedKeys, this.macCode, new Date(0));
      return past.ok
        ? { state: 'expired', code: stored.regist_code, payload: past.payload, expiresAt: past.expiresAt }
        : { state: 'expired', code: stored.regist_code, payload: null, expiresAt: null };
    }
    return { state: 'unregistered' };
  }

  /** Verify and store a registration code; throws 400 with the distinct reason. */
  async register(code: string): Promise<LicencePayload> {
    const check = verifyLicenceCode(code, this.trustedKeys, this.macCode);
    if (!check.ok) throw Errors.invalid(REJECTION_KEYS[check.reason]);
    await storeLicence(this.db, code.trim(), JSON.stringify(check.payload));
    return check.payload;
  }

  /** DEMO=1: register a demo licence when there is no valid one, so that the demo logs in at once. */
  async ensureDemoLicence(): Promise<void> {
    if (!this.demoKey) return;
    if ((await this.status()).state === 'valid') return;
    const code = issueLicenceCode(
      { v: 1, mac_code: this.macCode, issued_at: new Date().toISOString(), ...DEMO_LICENCE },
      this.demoKey,
    );
    await this.register(code);
  }
}
