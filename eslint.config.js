// Lint: typescript-eslint's type-aware recommended rules, plus a limit on function length
// whose exceptions are named where they stand (an eslint-disable comment with its reason).
// Formatting is prettier's (npm run format); layering and import cycles are
// dependency-cruiser's (.dependency-cruiser.cjs), so neither is repeated here.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'src/sdk/api-types.ts',
      'src/http/console/assets/',
      'test/lint/fixtures/',
      '.data/',
      'coverage/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true, IIFEs: true }],
      // handlers of an interface that returns a promise stay `async` even when one of them does not wait
      '@typescript-eslint/require-await': 'off',
      // deciders and kysely's expression builder are plain objects whose functions never use `this`
      '@typescript-eslint/unbound-method': 'off',
      // String() of an unknown value is how CSV and HTML cells and error texts are made here
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // the operator's commands say what is missing rather than assert it is there
    files: ['src/cli/**'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'error' },
  },
  {
    // Code that reads raw JSON (stored events and rows as the database gives them, answers
    // over HTTP) works on untyped values on purpose: what it reads is checked by what it
    // asserts (tests, the simulation's invariants) or shown as it is (the operator console).
    files: ['test/**', 'bench/**', 'src/sim/**', 'src/http/console/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
  {
    // tests and benchmarks: the rules that need no type information (a type-aware pass over
    // them would double the lint's time in CI; the typecheck covers their types)
    files: ['test/**', 'bench/**'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // a test file is one describe block of many cases; its length is the number of cases
    files: ['test/**'],
    rules: { 'max-lines-per-function': 'off', '@typescript-eslint/restrict-template-expressions': 'off' },
  },
);
