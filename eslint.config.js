import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import portal from './apps/portal/eslint.config.js';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.tools/**', 'data/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', Buffer: 'readonly', fetch: 'readonly', AbortSignal: 'readonly', Response: 'readonly', Request: 'readonly', Headers: 'readonly', URLSearchParams: 'readonly', performance: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Only packages/config reads process.env.',
        },
      ],
    },
  },
  {
    files: ['packages/config/**', 'scripts/**', 'bench/**', '**/*.test.ts', 'test/**', 'playwright.config.ts', 'e2e/**', 'examples/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['packages/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['express', 'express-*', 'react', 'react-*', '@latchkey/auth', '@latchkey/api'], message: 'Core never imports Express, React or an app.' }] },
      ],
    },
  },
  // apps/portal: React hooks and accessibility rules, and the import boundaries between features.
  ...portal,
);
