import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-test/**', '**/.tsbuild/**', 'node_modules/**', 'test-results/**', 'demo/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // No app imports another app: they talk over packages/protocol and the wire.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/apps/*/**', '@kandev/agentctl', '@kandev/backend', '@kandev/web'], message: 'apps talk over the wire contract, never by import' },
          ],
        },
      ],
    },
  },
  {
    // The browser bundle gets no Node plumbing: node-transport is for the backend and agentctl.
    files: ['apps/web/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/apps/*/**', '@kandev/agentctl', '@kandev/backend', '@kandev/web', '@kandev/node-transport'],
              message: 'the web imports only @kandev/protocol and @kandev/kit',
            },
          ],
        },
      ],
    },
  },
  {
    // Rules that need the type checker: a promise nobody awaits loses its error, and a switch over a
    // union that misses a member (a new frame kind, a new status) silently does nothing for it.
    files: ['**/*.ts', '**/*.tsx'],
    // Declarations of plain JavaScript modules (test/support/env.d.ts) belong to no project.
    ignores: ['**/*.d.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    // One import statement per module (a type-only import beside a value import stays allowed).
    rules: { 'no-duplicate-imports': ['error', { allowSeparateTypeImports: true }] },
  },
  {
    files: ['scripts/**/*.mjs', 'eslint.config.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // The capability table (docs/languages.md) is measured with the apps' own parts: agentctl finds
    // and installs each server, and the web's initialize request (its client capabilities) is sent.
    // A build tool, like the tests; no app imports another.
    files: ['scripts/capability-*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['test/**', 'bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', 'no-restricted-imports': 'off' },
  },
);
