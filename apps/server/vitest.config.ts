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
  },
});
