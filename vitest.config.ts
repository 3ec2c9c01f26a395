import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['apps/*/src/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**', 'e2e/**'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Every suite uses its own SQLite file and servers on port 0, so files run in parallel.
    fileParallelism: true,
  },
});
