import { defineConfig } from 'vitest/config';

/**
 * The multi-node suite (issue 12): server processes on one PostgreSQL database
 * (TEST_DATABASE_URL) and a private redis-server. `npm test` runs it after the PostgreSQL suite;
 * by hand: TEST_DATABASE_URL=postgres://... npx vitest run -c vitest.cluster.config.ts
 */
export default defineConfig({
  test: {
    include: ['cluster-test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 240_000,
    pool: 'forks',
    // the files start their own processes on shared machines: one file at a time
    fileParallelism: false,
  },
});
