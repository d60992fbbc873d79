// Type-checks every workspace with its own tsconfig (no emit). A workspace without TypeScript
// sources yet (tsc would fail with "No inputs were found") is reported and skipped.
//
// Two tsc at a time (one per core, at most two): each tsc is one thread, so one after another left
// a core idle. On the 2-core machine the seven took 127 s one after another (server 33, web 30,
// bench 28, e2e 13, simulator 13, gb28181 11, protocol 10). The largest start first; each one's
// output is printed whole when it ends, so two never interleave.
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const projects = [
  'apps/server',
  'apps/web',
  'bench',
  'e2e',
  'packages/simulator',
  'packages/gb28181',
  'packages/protocol',
];
const LANES = Math.max(1, Math.min(2, availableParallelism()));
const TSC = join('node_modules', 'typescript', 'bin', 'tsc');

function hasTypeScript(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    if (entry.isDirectory() ? hasTypeScript(join(dir, entry.name)) : /\.tsx?$/.test(entry.name)) return true;
  }
  return false;
}

/** tsc -p dir; resolves with its exit code once its output has been printed. */
function check(dir) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TSC, '-p', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    let ended = false;
    child.stdout.on('data', (b) => output.push(b));
    child.stderr.on('data', (b) => output.push(b));
    const done = (code) => {
      if (ended) return;
      ended = true;
      process.stdout.write(Buffer.concat(output));
      console.log(code === 0 ? `types ok: ${dir}` : `types FAILED: ${dir} (exit ${code})`);
      resolve(code);
    };
    child.on('error', (err) => {
      output.push(Buffer.from(`${err.message}\n`));
      done(1);
    });
    child.on('close', (code) => done(code ?? 1));
  });
}

const queue = projects.filter((dir) => {
  if (!existsSync(`${dir}/tsconfig.json`)) return false;
  if (hasTypeScript(dir)) return true;
  console.log(`types skipped: ${dir} (no TypeScript sources yet)`);
  return false;
});
let failed = 0;
await Promise.all(
  Array.from({ length: LANES }, async () => {
    for (let dir = queue.shift(); dir; dir = queue.shift()) if ((await check(dir)) !== 0) failed++;
  }),
);
process.exit(failed ? 1 : 0);
