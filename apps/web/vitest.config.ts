import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

const TESTS = ['src/**/*.test.{ts,tsx}'];

/**
 * Test files that replace a module (vi.mock, vi.doMock) need a module graph of their own: in a
 * shared worker the real module may be loaded already, and their mock would stay for the files
 * after them. Found by reading the files, so that a new one cannot be forgotten.
 */
const MOCKING = (readdirSync('src', { recursive: true }) as string[])
  .filter((file) => /\.test\.tsx?$/.test(file))
  .map((file) => join('src', file))
  .filter((file) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(file, 'utf8')));

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
    // antd forms are slow in jsdom when the machine is busy (CI, parallel suites)
    testTimeout: 60_000,
    // vitest's default on 2 cores is one file at a time, which leaves a core idle while jsdom
    // renders: two at a time ran 24 files in 124 s instead of 213 s on a 2-core machine
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      // Each file still gets a jsdom of its own; the files of a worker share its loaded modules
      // (React, antd, the catalogues), which every file imported again before: 2026-11-29, 2 cores,
      // 804 tests, 282 s wall and 536 CPU s isolated against 128 s and 236 CPU s shared
      {
        extends: true,
        test: { name: 'shared', include: TESTS, exclude: [...configDefaults.exclude, ...MOCKING], isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: MOCKING } },
    ],
  },
});
