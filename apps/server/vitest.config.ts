import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

const TESTS = ['src/**/*.test.ts', 'test/**/*.test.ts'];
/** The one file that replaces a module (vi.mock of fastify): it needs a module graph of its own. */
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
      // 250 s of 318 s on 2 cores; the SQLite suite took 162 s without it).
      {
        extends: true,
        test: { name: 'shared', include: TESTS, exclude: [...configDefaults.exclude, ...MOCKING], isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: MOCKING } },
    ],
  },
});
