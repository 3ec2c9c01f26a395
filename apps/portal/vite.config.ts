import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

/**
 * The portal is served by the BFF from `dist/` in production (`npm start`); in development
 * `dev-server.ts` starts this config with a proxy for `/bff` (see scripts/dev.ts).
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [
    react(),
    // Issue 20: every text file of the build also as .br and .gz beside it, compressed once here
    // rather than per request; the BFF picks one by Accept-Encoding (spa.router.ts). Files under
    // 1 KB, or that would not shrink, stay as they are.
    compression({
      algorithms: ['brotliCompress', 'gzip'],
      include: /\.(html|css|js|mjs|json|svg|ttf)$/,
      threshold: 1024,
    }),
  ],
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
  resolve: {
    // Issue 20: monaco-graphql's editor is monaco-editor's edcore.main.js, every editor feature
    // (2.8 MB); the Explorer's own list of what GraphiQL uses (monaco-core.ts) in its place.
    alias: [
      {
        find: /^monaco-editor\/esm\/vs\/editor\/edcore\.main\.js$/,
        replacement: fileURLToPath(new URL('src/features/graphiql/components/monaco-core.ts', import.meta.url)),
      },
    ],
  },
  worker: { format: 'es' },
  optimizeDeps: {
    // Two CommonJS packages reached only from Monaco's GraphQL worker: pre-bundle them so the
    // dev server can serve that worker as an ES module (the production build bundles them anyway).
    include: ['monaco-graphql > graphql-language-service > nullthrows', 'monaco-graphql > picomatch-browser'],
  },
});
