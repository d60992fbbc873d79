// Type-checks every workspace with its own tsconfig (no emit). A workspace without TypeScript
// sources yet (tsc would fail with "No inputs were found") is reported and skipped.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const projects = ['packages/protocol', 'packages/gb28181', 'packages/simulator', 'apps/server', 'apps/web', 'e2e', 'bench'];

function hasTypeScript(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    if (entry.isDirectory() ? hasTypeScript(join(dir, entry.name)) : /\.tsx?$/.test(entry.name)) return true;
  }
  return false;
}

let failed = 0;
for (const dir of projects) {
  if (!existsSync(`${dir}/tsconfig.json`)) continue;
  if (!hasTypeScript(dir)) {
    console.log(`types skipped: ${dir} (no TypeScript sources yet)`);
    continue;
  }
  const r = spawnSync('npx', ['tsc', '-p', dir], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
  else console.log(`types ok: ${dir}`);
}
process.exit(failed ? 1 : 0);
