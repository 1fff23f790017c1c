import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const TEST_FILES = 'packages/*/src/**/*.test.ts';

/**
 * Test files that replace a module (`vi.mock`): a module replaced for one file must not be the one
 * an earlier file of the same worker already imported, so these run each in a fresh module graph.
 * Every other file shares its worker's modules with the files before it (`isolate: false`): the
 * server, PGlite and the libraries are imported once per worker instead of once per file.
 */
const REPLACES_MODULES = [
  'packages/server/src/ingest/ingest-paths.test.ts',
  'packages/web/src/lib/live-updates.test.ts',
];

/**
 * Test files that run for half a minute or more (servers and brokers killed and restarted on
 * purpose). Vitest starts the biggest files first when it has no timings of an earlier run, as on
 * a clean clone, which would leave these to the end, with one worker idle beside them.
 */
const LONG_RUNNING = [
  'packages/simulator/src/reliability.test.ts',
  'packages/server/src/ingest/mqtt-external-faults.test.ts',
  'packages/server/src/ingest/database-faults.test.ts',
  'packages/server/src/billing/accounting/lexware-office.test.ts',
  'packages/server/src/billing/accounting/create-in-accounting.test.ts',
  'packages/server/src/seed/demo-fleet.test.ts',
  'packages/server/src/db/upgrade.test.ts',
  'packages/server/src/db/pglite-backup.test.ts',
];

class LongRunningFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = LONG_RUNNING.findIndex((path) => file.moduleId.endsWith(path));
      return index === -1 ? LONG_RUNNING.length : index;
    };
    return sorted
      .map((file, order) => ({ file, order }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.order - b.order)
      .map(({ file }) => file);
  }
}

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default is one worker per core less one: a single worker on the 2-core CI machine,
    // although much of a file's time is waiting (server processes, PostgreSQL, Mosquitto, sockets).
    // Two workers: PGlite run 354 s -> 266 s, PostgreSQL run 194 s -> 144 s; three, while the
    // fault tests wait on killed brokers and servers: PGlite 219 s -> 184 s, PostgreSQL 204 s ->
    // 162 s; four: no better than three (docs/testing.md).
    maxWorkers: 3,
    sequence: { sequencer: LongRunningFirst },
    // One migrated database per run, copied by each test file (testing/global-setup.ts).
    globalSetup: ['packages/server/src/testing/global-setup.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'shared modules',
          include: [TEST_FILES],
          exclude: [...configDefaults.exclude, ...REPLACES_MODULES],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'own modules', include: REPLACES_MODULES, isolate: true } },
    ],
  },
});
