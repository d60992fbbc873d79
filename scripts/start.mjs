// `npm start`: installs dependencies when missing or stale, builds the console when stale, then runs
// the server in demo mode (it migrates and seeds its own database) with the built console.
import { spawn } from 'node:child_process';
import { mkdirSync, openSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEMO_ACCOUNTS, DEMO_OFFICER, ROOT, WEB_DIST, ensureDependencies, ensureWebBuilt, say, waitForHttp, warn } from './lib/setup.mjs';

try {
  await ensureDependencies();
  await ensureWebBuilt();
} catch (err) {
  warn(err.message);
  process.exit(1);
}

const port = process.env.PORT || '8080';
const env = {
  ...process.env,
  DEMO: process.env.DEMO ?? '1',
  PORT: port,
  DATA_DIR: resolve(ROOT, process.env.DATA_DIR || 'data'),
  WEB_DIST: process.env.WEB_DIST || WEB_DIST,
};
say(`starting the server on port ${port} (DATA_DIR=${env.DATA_DIR}${env.DATABASE_URL ? ', DATABASE_URL set' : ', SQLite'})`);

// the server's log (pino JSON, one line per request: the simulated fleet makes many) goes to a file;
// its stderr (start-up failures) stays on the terminal
mkdirSync(env.DATA_DIR, { recursive: true });
const logFile = join(env.DATA_DIR, 'server.log');
say(`server log: ${logFile}`);
// node --import tsx runs the TypeScript directly in this child, so signals reach the server itself
const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: ROOT,
  env,
  stdio: ['inherit', openSync(logFile, 'a'), 'inherit'],
});
let exited = false;
server.on('exit', (code, signal) => {
  exited = true;
  process.exit(code ?? (signal === 'SIGINT' || signal === 'SIGTERM' ? 0 : 1));
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    simulator?.kill('SIGTERM');
    gbSimulator?.kill('SIGTERM');
    if (!exited) server.kill(signal);
  });
}

const host = process.env.HOST;
const local = !host || host === '0.0.0.0' || host === '::';
const url = `http://${local ? 'localhost' : host}:${port}`;
const httpsPort = Number(process.env.HTTPS_PORT ?? 8443);
// the demo's simulated fleet: SIM_DEVICES body cameras (default 100 in demo mode, 0 turns it off)
// speaking the device API (those with a cluster number also the console service under /ws/console
// of the same port, as terminals), started once the server answers
const simDevices = Number(process.env.SIM_DEVICES ?? (env.DEMO === '1' ? 100 : 0));
const recordEvery = process.env.SIM_RECORD_EVERY ?? '10-20';
let simulator = null;
function startFleet() {
  if (!(simDevices > 0)) return;
  simulator = spawn(
    process.execPath,
    [
      ...['--import', 'tsx', 'packages/simulator/src/cli.ts', '--devices', String(simDevices), '--server', `http://127.0.0.1:${port}`],
      // face and plate results through the AI engine API; the token is the server's (AI_ENGINE_TOKEN,
      // else DATA_DIR/ai-engine.token, which both read)
      ...['--faces-per-min', process.env.SIM_FACES_PER_MIN ?? '0.5', '--plates-per-min', process.env.SIM_PLATES_PER_MIN ?? '0.5'],
      // evidence: each camera records a clip every SIM_RECORD_EVERY minutes (off: none) and uploads it
      ...['--record-every', recordEvery],
      // a docking workstation where 2 cameras dock in turn and hand over a clip each time
      // (SIM_WORKSTATIONS, 0: none)
      ...['--workstations', process.env.SIM_WORKSTATIONS ?? '1'],
    ],
    { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  simulator.on('exit', (code) => {
    if (code && !exited) warn(`the simulated fleet stopped (exit ${code}); the console keeps running`);
  });
}
// simulated GB28181 devices (SIM_GB_DEVICES, default 4 in demo mode, 0: none), each with 4
// channels, registering at 127.0.0.1:SIM_GB_PORT (default 5060, the GB settings' LocalPort) with the
// settings' default device password. They are answered once GB mode is on (System -> Dispatch
// configuration -> GB28181 access) and try again every 30 s until then.
const simGbDevices = Number(process.env.SIM_GB_DEVICES ?? (env.DEMO === '1' ? 4 : 0));
const simGbServer = `127.0.0.1:${process.env.SIM_GB_PORT ?? '5060'}`;
let gbSimulator = null;
function startGbDevices() {
  if (!(simGbDevices > 0)) return;
  gbSimulator = spawn(
    process.execPath,
    ['--import', 'tsx', 'packages/simulator/src/gb/cli.ts', '--devices', String(simGbDevices), '--server', simGbServer, '--channels', '4'],
    { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  gbSimulator.on('exit', (code) => {
    if (code && !exited) warn(`the simulated GB28181 devices stopped (exit ${code}); the console keeps running`);
  });
}
server.on('exit', () => {
  simulator?.kill('SIGTERM');
  gbSimulator?.kill('SIGTERM');
});

if (await waitForHttp(`http://${local ? '127.0.0.1' : host}:${port}/`, 120_000, () => !exited)) {
  startFleet();
  startGbDevices();
  const width = Math.max(...DEMO_ACCOUNTS.map((a) => a.username.length));
  console.log(
    [
      '',
      `  Console ready: ${url}`,
      ...(httpsPort > 0
        ? [
            `  HTTPS, needed for push-to-talk from other machines: https://${local ? '<address of this machine>' : host}:${httpsPort}`,
            `    its certificate to trust: ${url}/tls/console.crt (README: "HTTPS, for push-to-talk")`,
          ]
        : []),
      '',
      '  Demo accounts:',
      ...[...DEMO_ACCOUNTS, ...(simDevices > 0 ? [DEMO_OFFICER] : [])].map(
        (a) => `    ${a.username.padEnd(width)}  ${a.password.padEnd(10)}  ${a.role}`,
      ),
      '',
      simDevices > 0
        ? `  Simulated fleet: ${simDevices} body cameras moving around the map centre (SIM_DEVICES=0 turns it off),\n` +
          '  with SOS, fence crossings and face / plate results (SIM_FACES_PER_MIN, SIM_PLATES_PER_MIN; 0 turns them off);\n' +
          '  7 in 10 are console-service terminals (positions, emergencies, group texts, answers to messages),\n' +
          "  in their district's talk group, where one talks a short burst every 2-4 minutes;\n" +
          '  each one publishes live video (a test picture with its name) when a console opens it: Dispatch -> Video wall;\n' +
          (/^\s*(off|0)\s*$/i.test(recordEvery)
            ? '  evidence recording is off (SIM_RECORD_EVERY).'
            : `  each records a clip (video, audio note or photo) every ${recordEvery} minutes and uploads it as evidence,\n` +
              '  two cameras at a time (SIM_RECORD_EVERY, minutes; off turns it off).')
        : '  Simulated fleet: off (set SIM_DEVICES to start one).',
      simGbDevices > 0
        ? `  Simulated GB28181 devices: ${simGbDevices} with 4 channels each, registering at ${simGbServer} once GB mode is on\n` +
          '  (System -> Dispatch configuration -> GB28181 access; SIM_GB_DEVICES=0 turns them off).'
        : '  Simulated GB28181 devices: off (set SIM_GB_DEVICES to start some).',
      '',
      '  Stop with Ctrl+C.',
      '',
    ].join('\n'),
  );
} else if (!exited) {
  warn(`the server did not answer on ${url} within 2 minutes; its log is above`);
}
