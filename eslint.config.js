// One flat config for the whole workspace. Each package runs `eslint .` and finds this file.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', '**/test-results/**', '**/coverage/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read settings through the parsed config (apps/api/src/config.ts), not process.env.',
        },
      ],
    },
  },
  {
    // The contract is the bottom of every edge: rules and shapes only, no framework, no platform.
    files: ['packages/contract/src/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@placeport/*', 'placeport', 'node:*', 'fastify', '@fastify/*', 'react', 'comlink'], message: 'The contract imports nothing but valibot (in routes.ts).' }] }],
    },
  },
  {
    // The converter core is pure: no DOM, no network, no timers, no worker glue.
    files: ['packages/converter/src/core/**/*.ts'],
    ignores: ['**/*.test.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['comlink', 'node:*', '@placeport/*', '!@placeport/contract'], message: 'src/core stays pure and framework-free; the contract is as pure.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'self', 'window', 'document', 'fetch', 'setTimeout', 'setInterval', 'process'],
    },
  },
  {
    // Dependencies point one way: the converter never imports the apps or the testkit (tests excepted).
    files: ['packages/converter/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'packages/converter/src/core/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@placeport/api', '@placeport/web', '@placeport/resolver', '@placeport/resolver/*', '@placeport/testkit', 'placeport'], message: 'The converter depends on nothing of ours.' }] }],
    },
  },
  {
    // The library and the pipeline serve Node users too: the worker layer (and Comlink) sits on top, never below.
    files: ['packages/converter/src/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['@placeport/api', '@placeport/web', '@placeport/resolver', '@placeport/resolver/*', '@placeport/testkit', 'placeport'], message: 'The converter depends on nothing of ours.' },
        { group: ['./worker/*', 'comlink'], message: 'Only src/worker uses the worker layer; shared types live in src/core/seams.ts.' },
      ] }],
    },
  },
  {
    // architecture.md: api → resolver → converter. The resolver knows no server, page or CLI, and no Fastify.
    files: ['packages/resolver/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@placeport/api', '@placeport/web', '@placeport/testkit', 'placeport', 'fastify', '@fastify/*', '@placeport/converter/*', '!@placeport/converter/internal'], message: 'The resolver depends only on the converter (its main or internal entry) and takes everything else injected.' }] }],
    },
  },
  {
    // web → converter only: lookups go through the API, never the resolver in the page.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', 'apps/web/src/test/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@placeport/api', '@placeport/resolver', '@placeport/resolver/*', '@placeport/testkit', 'placeport'], message: 'The web app depends only on the converter and the contract.' }] }],
    },
  },
  {
    // api → resolver → converter; the testkit only in tests and benchmarks.
    files: ['apps/api/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.contract.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@placeport/web', '@placeport/testkit', 'placeport'], message: 'The API depends on the resolver, the converter and the contract only.' }] }],
    },
  },
  {
    // The CLI uses the converter and the resolver through their public entry points only.
    files: ['apps/cli/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@placeport/api', '@placeport/web', '@placeport/testkit', '@placeport/*/src/*', '@placeport/*/dist/*', '**/packages/*', '**/apps/*'],
              message: 'The CLI imports only @placeport/converter(/internal, /worker) and @placeport/resolver(/node).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/api/src/config.ts', 'apps/cli/src/config.ts', '**/scripts/**', '**/*.test.ts', '**/e2e/**', '**/bench/**', 'packages/testkit/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
