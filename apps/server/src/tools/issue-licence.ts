/**
 * Issue a registration code, or make a vendor key pair.
 *
 *   npm run licence -- --keygen --out ./vendor            writes vendor-ed25519.pem (private) and
 *                                                         vendor-ed25519.pub.pem; prints LICENCE_PUBLIC_KEY
 *   npm run licence -- --mac <mac_code> --days 365 --workstations 10 --devices 500 \
 *                      --key <private key file> [--customer <name>]
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { LicencePayload } from '@bwc/protocol';
import { issueLicenceCode, rawPublicKeyBase64 } from '../modules/licence/licence-code';

function fail(message: string): never {
  console.error(`issue-licence: ${message}`);
  process.exit(1);
}

function positiveInt(name: string, value: string | undefined, fallback?: number): number {
  if (value === undefined) {
    if (fallback !== undefined) return fallback;
    fail(`--${name} is required`);
  }
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) fail(`--${name} must be a positive whole number, got ${value}`);
  return n;
}

let values;
try {
  ({ values } = parseArgs({
    args: process.argv.slice(2),
    options: {
      keygen: { type: 'boolean' },
      out: { type: 'string' },
      mac: { type: 'string' },
      days: { type: 'string' },
      workstations: { type: 'string' },
      devices: { type: 'string' },
      key: { type: 'string' },
      customer: { type: 'string' },
      help: { type: 'boolean' },
    },
  }));
} catch (err) {
  fail((err as Error).message);
}

if (values.help) {
  console.log(readFileSync(new URL(import.meta.url), 'utf8').split('*/')[0]);
  process.exit(0);
}

if (values.keygen) {
  const dir = resolve(values.out ?? '.');
  const privateFile = join(dir, 'vendor-ed25519.pem');
  if (existsSync(privateFile)) fail(`${privateFile} exists; refusing to overwrite a vendor key`);
  mkdirSync(dir, { recursive: true });
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  writeFileSync(privateFile, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600 });
  writeFileSync(join(dir, 'vendor-ed25519.pub.pem'), publicKey.export({ format: 'pem', type: 'spki' }));
  console.log(`private key: ${privateFile} (keep it secret)`);
  console.log(`public key:  ${join(dir, 'vendor-ed25519.pub.pem')}`);
  console.log(`LICENCE_PUBLIC_KEY=${rawPublicKeyBase64(publicKey)}`);
  process.exit(0);
}

if (!values.mac) fail('--mac <mac_code> is required (shown by the registration step and the version dialog)');
if (!values.key) fail('--key <private key file> is required (make one with --keygen)');
let privateKey;
try {
  privateKey = createPrivateKey(readFileSync(resolve(values.key), 'utf8'));
} catch (err) {
  fail(`cannot read private key ${values.key}: ${(err as Error).message}`);
}
if (privateKey.asymmetricKeyType !== 'ed25519') fail('the key must be an Ed25519 private key');

const payload = LicencePayload.parse({
  v: 1,
  mac_code: values.mac.trim(),
  customer: values.customer ?? '',
  issued_at: new Date().toISOString(),
  valid_days: positiveInt('days', values.days, 365),
  workstations: positiveInt('workstations', values.workstations),
  devices: positiveInt('devices', values.devices),
});
console.error(
  `licence for ${payload.mac_code}: ${payload.valid_days} days, ${payload.workstations} workstations, ${payload.devices} devices`,
);
console.error(`public key: ${rawPublicKeyBase64(createPublicKey(privateKey))}`);
console.log(issueLicenceCode(payload, privateKey));
