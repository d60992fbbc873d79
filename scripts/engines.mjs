// Part of `npm run check`: every package in package-lock.json must accept the oldest Node the
// project promises (root package.json `engines.node`, e.g. >=20.19). npm only warns (EBADENGINE)
// when a dependency wants a newer Node, so an update that drops Node 20 would otherwise slip in
// unnoticed; pin a version that supports it (package.json `overrides`) instead.
import { readFileSync } from 'node:fs';
import semver from 'semver';

const root = JSON.parse(readFileSync('package.json', 'utf8'));
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const oldest = semver.minVersion(root.engines.node);

const excluding = Object.entries(lock.packages)
  .filter(([path, pkg]) => path.startsWith('node_modules/') && typeof pkg.engines?.node === 'string')
  .filter(([, pkg]) => !semver.satisfies(oldest, pkg.engines.node))
  .map(([path, pkg]) => `  ${path.replace(/^.*node_modules\//, '')}@${pkg.version} requires node ${pkg.engines.node}`);

if (excluding.length) {
  console.error(`engines: these dependencies exclude Node ${oldest} (package.json engines.node ${root.engines.node}):`);
  console.error(excluding.join('\n'));
  process.exit(1);
}
console.log(`engines ok: every locked package accepts Node ${oldest}`);
