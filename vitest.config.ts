import { defineConfig } from 'vitest/config';

// One config, three projects: unit tests sit next to their sources, integration tests drive the
// real processes over the wire, browser tests drive Debian's Chromium against the real stack.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.{ts,tsx}', 'test/fixtures/**/*.test.ts', 'scripts/*.test.ts'],
          testTimeout: 20_000,
        },
      },
      { test: { name: 'integration', include: ['test/integration/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 180_000, fileParallelism: false } },
      { test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], testTimeout: 180_000, hookTimeout: 300_000, fileParallelism: false } },
    ],
  },
});
