import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { ESLint, type Linter } from 'eslint';

// The server's layers are held by the lint (eslint.config.js, docs/architecture.md): these plant
// imports in files that do not exist and ask the lint what it says, so that a change to the table
// that stops holding a layer fails here, not in a review months later.
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
// Only the import zones are asked about: the circle check would walk the whole server from each
// planted import (seconds each).
const ZONES_ONLY: Linter.Config[] = [
  { files: ['packages/server/src/**/*.ts'], rules: { 'import-x/no-cycle': 'off' } },
];
const eslint = new ESLint({ cwd: ROOT, overrideConfig: ZONES_ONLY });
// Loaded by its address: the config is JavaScript outside the type-checked files.
const CONFIG_FILE = new URL('../../../eslint.config.js', import.meta.url).href;

const IMPORT_RULES = new Set(['no-restricted-imports', '@typescript-eslint/no-restricted-imports']);

async function lintErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}/packages/server/src/${file}` });
  return result.messages.filter((each) => IMPORT_RULES.has(each.ruleId ?? '')).map((each) => each.message);
}

const layerErrors = (file: string, specifier: string) => lintErrors(file, `import '${specifier}';\n`);

describe('the server layers in the lint', () => {
  it.each([
    ['commands/planted.ts', '../routes/v2/devices/devices.ts', 'commands/ imports only the folders below it'],
    ['db/planted.ts', '../commands/create-device.ts', 'db/ imports only'],
    ['repositories/planted.ts', '../presenters/device.ts', 'repositories/ imports only'],
    ['policies/planted.ts', '../repositories/users.ts', 'policies/ imports only'],
    ['queue/planted.ts', '../jobs/definitions/index.ts', 'queue/ imports only'],
    ['notifications/planted.ts', '../commands/record-report.ts', 'notifications/ imports only'],
    ['time/planted.ts', '../db/client.ts', 'time/ is a leaf'],
    ['context.ts', './app.ts', 'context/ imports only'],
    ['routes/v2/devices/planted.ts', '../../../app.ts', 'routes/ imports only'],
  ])('refuses a back-import: %s importing %s', async (file, specifier, message) => {
    const errors = await layerErrors(file, specifier);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(message);
  });

  it.each([
    ['commands/planted.ts', '../repositories/devices.ts'],
    ['routes/v2/devices/planted.ts', '../../../commands/create-device.ts'],
    ['ingest/planted.ts', '../time/zone.ts'],
    ['jobs/definitions/planted.ts', '../../intelligence/refresh-forecasts.ts'],
  ])('lets an import run down: %s importing %s', async (file, specifier) => {
    expect(await layerErrors(file, specifier)).toEqual([]);
  });

  it('lets a listed file keep its one back-import, and nothing else above it', async () => {
    // The list is empty: a back-import planted through the config's own blocks.
    const { backImportBlocks } = (await import(CONFIG_FILE)) as {
      backImportBlocks: (backImports: { file: string; folder: string; why: string }[]) => Linter.Config[];
    };
    const planted = new ESLint({
      cwd: ROOT,
      overrideConfig: [
        ...backImportBlocks([{ file: 'commands/planted.ts', folder: 'intelligence', why: 'planted' }]),
        ...ZONES_ONLY,
      ],
    });
    const errors = async (specifier: string) => {
      const [result] = await planted.lintText(`import '${specifier}';\n`, {
        filePath: `${ROOT}/packages/server/src/commands/planted.ts`,
      });
      return result.messages.filter((each) => IMPORT_RULES.has(each.ruleId ?? ''));
    };
    expect(await errors('../intelligence/degree-days.ts')).toEqual([]);
    expect(await errors('../ingest/store-report.ts')).toHaveLength(1);
    expect(await layerErrors('commands/planted.ts', '../intelligence/degree-days.ts')).toHaveLength(1);
  });
});

describe('routes hold no SQL', () => {
  it('refuses the query builder and the tables in a route', async () => {
    const route = 'routes/v2/devices/planted.ts';
    expect(await lintErrors(route, "import { eq } from 'drizzle-orm';\n")).toEqual([
      expect.stringContaining('Routes hold no SQL'),
    ]);
    expect(await lintErrors(route, "import { devices } from '../../../db/schema.ts';\n")).toEqual([
      expect.stringContaining('Routes hold no SQL'),
    ]);
  });

  it('lets a route name a row type, and a repository build its query', async () => {
    expect(
      await lintErrors(
        'routes/v2/devices/planted.ts',
        "import type { UserRow } from '../../../db/schema.ts';\n",
      ),
    ).toEqual([]);
    expect(await lintErrors('repositories/planted.ts', "import { eq } from 'drizzle-orm';\n")).toEqual([]);
  });
});
