import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Server tests: unit tests and integration tests (real database) next to the code.
 * SQLite by default; TEST_DATABASE_URL=postgres://... runs the same suites on PostgreSQL
 * (each test file creates and drops its own database).
 */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default on 2 cores is one file at a time; these tests wait on sockets, databases and
    // ffmpeg much of the time, so two at a time took the suite from 549 s to 310 s (SQLite) and
    // from 662 s to 395 s (PostgreSQL) on a 2-core machine. Ports are all chosen by the system.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
