import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The portal is served by the BFF from `dist/` in production (`npm start`); in development
 * `dev-server.ts` starts this config with a proxy for `/bff` (see scripts/dev.ts).
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json maps each route module to the chunks it needs (the bench reads it).
    manifest: true,
    target: 'es2022',
    // The explorer (GraphiQL + Monaco) is one large lazy chunk by design; the other pages stay small.
    chunkSizeWarningLimit: 5000,
    rolldownOptions: {
      onwarn(warning, warn) {
        // GraphiQL's packages carry React Compiler directives ("use no memo") that bundling drops harmlessly.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  worker: { format: 'es' },
  optimizeDeps: {
    // Two CommonJS packages reached only from Monaco's GraphQL worker: pre-bundle them so the
    // dev server can serve that worker as an ES module (the production build bundles them anyway).
    include: ['monaco-graphql > graphql-language-service > nullthrows', 'monaco-graphql > picomatch-browser'],
  },
});
