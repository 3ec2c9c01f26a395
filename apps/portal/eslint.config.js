// The portal's lint rules, spread into the root eslint.config.js (the React plugins are this
// package's dependencies). Paths are relative to the repository root.
import { readdirSync } from 'node:fs';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';

const SRC = 'apps/portal/src';
/** Every folder of src/features is a feature: the list is read from the tree, never typed by hand. */
const FEATURES = readdirSync(new URL('./src/features/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * Import direction: shared code (components, lib, config) → features → app.
 * A feature never imports another feature; routes in app/ compose them.
 */
const featureBoundaries = FEATURES.map((feature) => {
  const others = FEATURES.filter((other) => other !== feature).join('|');
  return {
    files: [`${SRC}/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(features/)?(${others})(/|$)`,
              message: `Features don't import each other: compose "${feature}" with other features in src/app/routes.`,
            },
            { regex: '^(\\.\\./)+app/', message: 'Features never import from src/app; the app imports features.' },
          ],
        },
      ],
    },
  };
});

export default [
  {
    files: [`${SRC}/**/*.{ts,tsx}`],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    languageOptions: { parserOptions: { ecmaFeatures: { jsx: true } } },
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      'react-hooks/exhaustive-deps': 'error',
      // Dialogs put focus on their first field themselves (data-autofocus), not with autoFocus.
      'jsx-a11y/no-autofocus': 'error',
    },
  },
  {
    files: [`${SRC}/components/**/*.{ts,tsx}`, `${SRC}/lib/**/*.{ts,tsx}`, `${SRC}/config/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(features|app)/',
              message: 'Shared code (components, lib, config) never imports features or the app.',
            },
          ],
        },
      ],
    },
  },
  ...featureBoundaries,
  {
    files: [`${SRC}/**/*.test.{ts,tsx}`, `${SRC}/testing/**/*.{ts,tsx}`],
    rules: { 'no-restricted-imports': 'off' },
  },
];
