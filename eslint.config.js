// Lint rules plus the import zones between the packages: `shared` imports neither server nor web,
// server and web never import each other, web features do not import each other, and the web's
// shared folders (src/components, src/lib) import no feature.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import { existsSync, readdirSync } from 'node:fs';

// The web features are the folders under packages/web/src/features: the zones
// below always name the real ones, and a new feature gets its zone without an edit here.
const WEB_FEATURES = readdirSync(new URL('./packages/web/src/features/', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const WEB_TO_SERVER = {
  group: ['@tankportal/server*', '**/server/src/**'],
  message: 'The web app talks to the server over HTTP only.',
};

/**
 * Imports of these web features, written either way: through `features/<name>/` (from outside
 * the features), or relatively from inside another feature (`../../../contacts/api/x.ts`), which
 * names no `features/` folder.
 */
const webFeatureImports = (features, message) => [
  { group: features.map((feature) => `**/features/${feature}/**`), message },
  { regex: `^(\\.\\./)+(${features.join('|')})/`, message },
];

/**
 * The same for `import()`, which no-restricted-imports does not see: a lazily loaded page or dialog
 * of another feature is an import of it all the same.
 */
const webFeatureDynamicImports = (features, message) => {
  const names = features.join('|');
  return [
    { selector: `ImportExpression[source.value=/\\/features\\/(${names})\\//]`, message },
    { selector: `ImportExpression[source.value=/^(\\.\\.\\/)+(${names})\\//]`, message },
  ];
};

const FEATURES_APART =
  'Features do not import each other: move shared parts to src/components or src/lib, compose them in src/app.';
const SHARED_KNOWS_NO_FEATURE =
  'src/components and src/lib import no feature: pass what they need in, or move it here.';

const SERVER_TO_WEB = {
  group: ['@tankportal/web*', '**/web/src/**'],
  message: 'The server never imports the web app.',
};

/**
 * The server's folders from the top layer down (docs/architecture.md draws them): a folder imports
 * only folders below it, never one above or beside it. The leaves below every layer import nothing
 * of the server. Its tests are not held to it.
 */
const SERVER_LAYERS = [
  'main', // process entry points
  'app', // builds the Fastify app from everything below
  'routes', // HTTP handlers
  'context', // what routes get handed: the process's services
  'seed', // base and demo data
  'plugins', // auth, csrf, errors, compression: wiring for the app
  'jobs', // job handlers and the queue put together
  'ingest', // device protocols to stored reports
  'billing', // invoicing, e-invoices, accounting, DATEV
  'intelligence', // forecasts, sensor checks, weather
  'commands', // business logic across tables
  'notifications', // events, outbox, texts, delivery
  'live', // live updates fanned out to open streams
  'presenters', // row -> answer
  'queue', // the durable job queue and the scheduler
  'channels', // the ways out of the process: SMS gateways, MQTT, mail
  'repositories', // shared reads
  'policies', // who may do what
  'metrics',
  'health',
  'config',
  'db',
];
const SERVER_LEAVES = ['time', 'http-error', 'lookups', 'sensor-logic', 'tours'];
/** Helpers of the tests (servers, brokers, fakes): only tests import them, and they import anything. */
const SERVER_TEST_HELPERS = ['testing'];

// A folder the table does not place would be held by no zone: the lint refuses to start instead.
const unplaced = readdirSync(new URL('./packages/server/src/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .filter((name) => ![...SERVER_LAYERS, ...SERVER_LEAVES, ...SERVER_TEST_HELPERS].includes(name));
if (unplaced.length > 0)
  throw new Error(`eslint.config.js: place ${unplaced.join(', ')} in SERVER_LAYERS or SERVER_LEAVES`);

/**
 * Back-imports not yet straightened, file by file: each is allowed the one folder named, nothing
 * else above it, e.g. `{ file: 'commands/x.ts', folder: 'intelligence', why: '...' }`. Empty, and
 * it only shrinks; layers.test.ts plants one through `backImportBlocks` to keep the mechanism held.
 */
const SERVER_BACK_IMPORTS = [];

/**
 * Imports of these server parts (a folder, or a file at src/ such as app.ts), named relatively
 * (`../plugins/auth.ts`, from a file at src/ `./plugins/auth.ts`) or through a path.
 */
const serverFolders = (folders, message) => [
  {
    group: folders.flatMap((folder) => [`**/server/src/${folder}/**`, `**/server/src/${folder}.ts`]),
    message,
  },
  { regex: `^(\\./|(\\.\\./)+)(${folders.join('|')})(/|\\.ts$)`, message },
];

/** A part of the server is a folder or one file at src/ (app.ts, context.ts, http-error.ts). */
const SERVER_SRC = new URL('./packages/server/src/', import.meta.url);
const filesOf = (part) =>
  existsSync(new URL(`${part}.ts`, SERVER_SRC))
    ? [`packages/server/src/${part}.ts`]
    : [`packages/server/src/${part}/**`];

/** The folders above `folder` and beside it at the leaves: what it may not import. */
function forbiddenFor(folder) {
  const layer = SERVER_LAYERS.indexOf(folder);
  const above = layer < 0 ? [...SERVER_LAYERS] : SERVER_LAYERS.slice(0, layer);
  return SERVER_LEAVES.includes(folder)
    ? [...SERVER_LAYERS, ...SERVER_LEAVES.filter((leaf) => leaf !== folder)]
    : above;
}

const layerMessage = (folder) =>
  SERVER_LEAVES.includes(folder)
    ? `${folder}/ is a leaf: it imports nothing of the server.`
    : `${folder}/ imports only the folders below it: ${SERVER_LAYERS.slice(SERVER_LAYERS.indexOf(folder) + 1).join(', ')} and the leaves (${SERVER_LEAVES.join(', ')}); see docs/architecture.md.`;

/**
 * Routes hold no SQL: they parse, authorise, call a command or a repository, and present. The query
 * builder and the tables are not theirs to import.
 */
const ROUTE_SQL = [
  {
    group: ['drizzle-orm', 'drizzle-orm/*'],
    message: 'Routes hold no SQL: put the query in repositories/ (reads) or commands/ (writes and rules).',
  },
  {
    // The row types beside the tables are not SQL: `import type` stays allowed.
    regex: '^(\\.\\./)+db/schema\\.ts$',
    allowTypeImports: true,
    message: 'Routes hold no SQL: put the query in repositories/ (reads) or commands/ (writes and rules).',
  },
];

/** One lint block per folder, generated from the table. */
const serverLayerRules = [...SERVER_LAYERS, ...SERVER_LEAVES].map((folder) => ({
  files: filesOf(folder),
  forbidden: forbiddenFor(folder),
  message: layerMessage(folder),
  extra: folder === 'routes' ? ROUTE_SQL : [],
}));

/** A layer rule as a lint block: its files may not import the `forbidden` parts. */
const layerBlock = ({ files, forbidden, message, extra }) => ({
  files,
  ignores: ['**/*.test.ts'],
  rules: {
    'no-restricted-imports': ['error', { patterns: [SERVER_TO_WEB, ...serverFolders(forbidden, message)] }],
    '@typescript-eslint/no-restricted-imports': extra.length ? ['error', { patterns: extra }] : 'off',
  },
});

/**
 * The blocks that allow each listed file its one folder above it: placed after the layers' blocks,
 * they replace the rule of the file's folder for that file alone.
 */
export const backImportBlocks = (backImports) =>
  backImports.map((exception) => {
    const folder = exception.file.split('/')[0];
    return layerBlock({
      files: [`packages/server/src/${exception.file}`],
      forbidden: forbiddenFor(folder).filter((each) => each !== exception.folder),
      message: layerMessage(folder),
      extra: [],
    });
  });

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      'playwright-report/**',
      'test-results/**',
      'packages/server/drizzle/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['packages/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['@tankportal/server*', '@tankportal/web*', '**/server/**', '**/web/**'] },
      ],
    },
  },
  {
    files: ['packages/server/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SERVER_TO_WEB] }] },
  },
  // The server's layers, from the table above.
  ...serverLayerRules.filter(({ forbidden }) => forbidden.length > 0).map(layerBlock),
  ...backImportBlocks(SERVER_BACK_IMPORTS),
  {
    // No import circles in the server: a circle makes the order modules initialise in depend on
    // which one is imported first. Type-only imports are not followed (they vanish at run time);
    // the layer zones above keep those one way too. Tests are leaves, so only the code is walked.
    files: ['packages/server/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // The server imports its files by their real names (`./x.ts`, allowImportingTsExtensions):
      // the node resolver finds them as they are; .ts files are parsed as TypeScript.
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // No import circles in the web app either, for the same reason: a circle through a lazy
    // route or a feature's module decides which half is initialised first. Type-only imports are
    // not followed; tests are leaves.
    files: ['packages/web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['packages/web/**'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: ['@tankportal/server*', '**/server/src/**'] }],
    },
  },
  ...WEB_FEATURES.map((feature) => ({
    files: [`packages/web/src/features/${feature}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            WEB_TO_SERVER,
            ...webFeatureImports(
              WEB_FEATURES.filter((other) => other !== feature),
              FEATURES_APART,
            ),
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        ...webFeatureDynamicImports(
          WEB_FEATURES.filter((other) => other !== feature),
          FEATURES_APART,
        ),
      ],
    },
  })),
  {
    // The shared folders serve every feature, so they know none (app/ composes features).
    files: ['packages/web/src/components/**', 'packages/web/src/lib/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [WEB_TO_SERVER, ...webFeatureImports(WEB_FEATURES, SHARED_KNOWS_NO_FEATURE)],
        },
      ],
      'no-restricted-syntax': ['error', ...webFeatureDynamicImports(WEB_FEATURES, SHARED_KNOWS_NO_FEATURE)],
    },
  },
);
