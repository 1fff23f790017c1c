import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker per core less one: a single worker on the 2-core CI machine,
    // although most of a file's time is waiting (server processes, PostgreSQL, Mosquitto, sockets).
    // Two workers: PGlite run 354 s -> 266 s, PostgreSQL run 194 s -> 144 s (docs/testing.md).
    maxWorkers: 2,
    // One migrated database per run, copied by each test file (testing/global-setup.ts).
    globalSetup: ['packages/server/src/testing/global-setup.ts'],
  },
});
