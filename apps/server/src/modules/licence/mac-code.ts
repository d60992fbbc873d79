import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, networkInterfaces } from 'node:os';
import { join } from 'node:path';

const VIRTUAL_INTERFACE = /^(lo|veth|docker|br-|virbr|vmnet|tun|tap|wg|zt)/;

function machineId(): string {
  for (const file of ['/etc/machine-id', '/var/lib/dbus/machine-id']) {
    try {
      const id = readFileSync(file, 'utf8').trim();
      if (id) return id;
    } catch {
      // not on this system
    }
  }
  return '';
}

/** Physical MAC addresses, sorted, so that interface order and virtual bridges do not change the code. */
export function physicalMacs(): string[] {
  const macs = new Set<string>();
  for (const [name, addrs] of Object.entries(networkInterfaces())) {
    if (VIRTUAL_INTERFACE.test(name)) continue;
    for (const a of addrs ?? [])
      if (!a.internal && a.mac && a.mac !== '00:00:00:00:00:00') macs.add(a.mac.toLowerCase());
  }
  return [...macs].sort();
}

/** Random id of this installation, created once in DATA_DIR. */
export function installId(dataDir: string): string {
  const file = join(dataDir, 'install-id');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const id = randomUUID();
  writeFileSync(file, `${id}\n`, { flag: 'wx' });
  return id;
}

/** Format a fingerprint digest as the mac_code shown to users: 6 groups of 4 hex digits. */
export function formatMacCode(parts: {
  machineId: string;
  hostname: string;
  macs: string[];
  installId: string;
}): string {
  const digest = createHash('sha256')
    .update([parts.machineId, parts.hostname, parts.macs.join(','), parts.installId].join('|'))
    .digest('hex');
  return digest.slice(0, 24).toUpperCase().match(/.{4}/g)!.join('-');
}

/** The installation's fingerprint, bound into registration codes; stable across restarts. */
export function computeMacCode(dataDir: string, cluster = false): string {
  // the nodes of a cluster (REDIS_URL) are one installation on several machines: the code is the
  // shared DATA_DIR's install id alone, the same on every node
  if (cluster)
    return formatMacCode({ machineId: 'cluster', hostname: 'cluster', macs: [], installId: installId(dataDir) });
  return formatMacCode({
    machineId: machineId(),
    hostname: hostname(),
    macs: physicalMacs(),
    installId: installId(dataDir),
  });
}
