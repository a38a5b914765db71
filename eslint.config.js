import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const features = readdirSync(new URL('./src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * Imports flow one way: shared code (components, config, content, lib, types, testing) →
 * features → app. A feature may use another feature only through its public entry
 * (`src/features/<name>/index.ts`), never its internals. The zones are bulletproof-react's,
 * with import-x's `no-restricted-paths`; `scripts/checks/lint-boundaries.test.ts` proves the linter
 * refuses a probe import of each kind.
 */
export const boundaryZones = [
  ...features.map((feature) => ({
    target: `./src/features/${feature}`,
    from: './src/features',
    except: [`./${feature}`, ...features.filter((other) => other !== feature).map((other) => `./${other}/index.ts`)],
    message: 'Features meet in app/ or through the other feature’s public entry (@/features/<name>).',
  })),
  {
    target: './src/features',
    from: ['./src/app', './src/document'],
    message: 'app and document compose features; features do not import them.',
  },
  {
    // No exceptions: the boot code serves the app's pages before React runs, and nothing
    // beneath it. A helper a feature needs lives in src/lib.
    target: './src/features',
    from: './src/boot',
    message: 'Features do not import the boot code: a helper they need belongs in src/lib.',
  },
  {
    target: ['./src/components', './src/config', './src/content', './src/lib', './src/types'],
    from: ['./src/features', './src/app', './src/document', './src/boot'],
    message: 'Shared code does not depend on features, the app, the documents or the boot code.',
  },
  {
    // The boot script (main.ts) starts the app; the rest of src/boot runs before it.
    target: './src/boot/!(main).*',
    from: ['./src/features', './src/app', './src/document'],
    message: 'The boot code before the app does not depend on features, the app or the documents.',
  },
  {
    // The documents never load the app: its boot code is for the pages React runs.
    target: './src/document',
    from: './src/boot',
    message: 'The documents do not load the boot code: they never start the app.',
  },
  { target: './src', from: './packages/supabase-stand-in', message: 'The app never imports the local stand-in.' },
];

export default tseslint.config(
  {
    ignores: [
      'dist',
      'node_modules',
      'coverage',
      'playwright-report',
      'test-results',
      'packages/supabase-stand-in/.data',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Type-aware: a promise that is neither awaited, returned, caught nor explicitly `void`ed
    // is an error, and so is a promise passed where a plain callback is expected.
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y, 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-restricted-paths': ['error', { zones: boundaryZones }],
    },
  },
  {
    files: [
      'supabase/**/*.{js,mjs,ts}',
      'packages/**/*.{js,mjs,ts}',
      'scripts/**/*.{js,mjs}',
      'e2e/**/*.ts',
      '*.config.{js,ts}',
    ],
    languageOptions: { globals: globals.node },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
