// Type-checks every workspace with its own tsconfig (no emit).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const projects = ['packages/protocol', 'packages/simulator', 'apps/server', 'apps/web', 'e2e', 'bench'];
let failed = 0;
for (const dir of projects) {
  if (!existsSync(`${dir}/tsconfig.json`)) continue;
  const r = spawnSync('npx', ['tsc', '-p', dir], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
  else console.log(`types ok: ${dir}`);
}
process.exit(failed ? 1 : 0);
