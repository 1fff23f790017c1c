import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One migrated database per run, copied by each test file (testing/global-setup.ts).
    globalSetup: ['packages/server/src/testing/global-setup.ts'],
  },
});
