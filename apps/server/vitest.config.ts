import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

const TESTS = ['src/**/*.test.ts', 'test/**/*.test.ts'];
/**
 * Files that replace a module (vi.mock; today fastify's factory) need a module graph of their own:
 * in a shared worker the real module is already loaded. A new file that mocks goes here.
 */
const MOCKING = ['src/http/contract.test.ts'];

/**
 * Server tests: unit tests and integration tests (real database) next to the code.
 * SQLite by default; TEST_DATABASE_URL=postgres://... runs the same suites on PostgreSQL
 * (each test file creates and drops its own database).
 */
export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default on 2 cores is one file at a time; these tests wait on sockets, databases and
    // ffmpeg much of the time, so two at a time took the suite from 549 s to 310 s (SQLite) and
    // from 662 s to 395 s (PostgreSQL) on a 2-core machine. Ports are all chosen by the system.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      // Each file builds its own app, database and data folder, so the files of a worker can share
      // its loaded modules: importing the server again for every file was most of the run (import
      // 250 s of 318 s on 2 cores; sharing them, the SQLite suite took 158-163 s).
      {
        extends: true,
        test: { name: 'shared', include: TESTS, exclude: [...configDefaults.exclude, ...MOCKING], isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: MOCKING } },
    ],
  },
});
