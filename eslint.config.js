// Lint rules plus the import zones of DESIGN.md §6: `shared` imports neither server nor web,
// server and web never import each other, and web features do not import each other.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const WEB_FEATURES = [
  'auth',
  'devices',
  'device-settings',
  'users',
  'messages',
  'contacts',
  'system',
  'billing',
  'settings',
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
            {
              group: ['@tankportal/server*', '**/server/src/**'],
              message: 'The web app talks to the server over HTTP only.',
            },
            {
              group: WEB_FEATURES.filter((other) => other !== feature).map(
                (other) => `**/features/${other}/**`,
              ),
              message: 'Features do not import each other: move shared parts to src/components or src/lib.',
            },
          ],
        },
      ],
    },
  })),
);
