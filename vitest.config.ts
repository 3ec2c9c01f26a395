import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['apps/*/src/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['**/node_modules/**', 'e2e/**'],
          pool: 'forks',
          // Every suite uses its own SQLite file and servers on port 0, so files run in parallel.
          fileParallelism: true,
        },
      },
      {
        extends: true,
        test: {
          name: 'portal',
          include: ['apps/portal/src/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['apps/portal/src/testing/setup-tests.ts'],
        },
      },
    ],
  },
});
