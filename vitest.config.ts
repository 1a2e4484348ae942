import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Most suites wait on servers, browsers and child processes, not the CPU: vitest's default (CPUs - 1) runs one
    // file at a time on a 2-CPU machine. Two at a time took the suite from 1346 s to 733 s there, all passing.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    reporters: ['default'],
  },
});
