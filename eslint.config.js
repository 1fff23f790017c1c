// Lint rules plus the import zones of DESIGN.md §6: `shared` imports neither server nor web,
// server and web never import each other, web features do not import each other, and the web's
// shared folders (src/components, src/lib) import no feature.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';

// The web features are the folders under packages/web/src/features (DESIGN.md §6): the zones
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
    rules: { 'no-restricted-imports': ['error', { patterns: ['@tankportal/web*', '**/web/src/**'] }] },
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
