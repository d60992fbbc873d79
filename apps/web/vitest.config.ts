import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // antd forms are slow in jsdom when the machine is busy (CI, parallel suites)
    testTimeout: 60_000,
    // vitest's default on 2 cores is one file at a time, which leaves a core idle while jsdom
    // renders: two at a time ran 24 files in 124 s instead of 213 s on a 2-core machine
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
