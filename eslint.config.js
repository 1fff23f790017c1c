// Lint rules plus the import zones between the packages: `shared` imports neither server nor web,
// server and web never import each other, web features do not import each other, and the web's
// shared folders (src/components, src/lib) import no feature.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import globals from 'globals';
import { readdirSync } from 'node:fs';

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

const SERVER_TO_WEB = {
  group: ['@tankportal/web*', '**/web/src/**'],
  message: 'The server never imports the web app.',
};

/** Imports of these server folders, named relatively (`../plugins/auth.ts`) or through a path. */
const serverFolders = (folders, message) => [
  { group: folders.map((folder) => `**/server/src/${folder}/**`), message },
  { regex: `^(\\.\\./)+(${folders.join('|')})/`, message },
];

/** What each server folder may not import; its tests are not held to it. */
const SERVER_LAYERS = [
  {
    // A flat folder: whatever leaves it is another part of the server.
    folder: 'db',
    patterns: [
      {
        regex: '^\\.\\./',
        message: 'db/ imports nothing of the server but db/ itself (and @tankportal/shared).',
      },
    ],
  },
  {
    folder: 'repositories',
    patterns: serverFolders(
      ['commands', 'plugins', 'routes', 'main'],
      'repositories/ sit below commands and never import commands, plugins, routes or main.',
    ),
  },
  {
    folder: 'policies',
    patterns: serverFolders(
      ['commands', 'plugins', 'routes', 'main'],
      'policies/ sit below commands and never import commands, plugins, routes or main.',
    ),
  },
  {
    // The live updates fan out what the database announces; they decide nothing of their own.
    folder: 'live',
    patterns: serverFolders(
      ['commands', 'ingest', 'plugins', 'routes', 'main'],
      'live/ reads the database and the policies only: never commands, ingest, plugins, routes or main.',
    ),
  },
  {
    folder: 'commands',
    patterns: serverFolders(
      ['plugins', 'routes', 'main'],
      'commands/ never import plugins, routes or main: HttpError is in src/http-error.ts, Actor in policies/actor.ts.',
    ),
  },
];

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
  // The server's layers: shared <- db <- repositories/policies <- commands <-
  // routes/ingest/jobs <- main; plugins are wiring, not a library for policies or commands.
  ...SERVER_LAYERS.map(({ folder, patterns }) => ({
    files: [`packages/server/src/${folder}/**`],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [SERVER_TO_WEB, ...patterns] }] },
  })),
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
              'Features do not import each other: move shared parts to src/components or src/lib, compose them in src/app.',
            ),
          ],
        },
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
          patterns: [
            WEB_TO_SERVER,
            ...webFeatureImports(
              WEB_FEATURES,
              'src/components and src/lib import no feature: pass what they need in, or move it here.',
            ),
          ],
        },
      ],
    },
  },
);
