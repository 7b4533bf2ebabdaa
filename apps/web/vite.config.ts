import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The web app is built into apps/web/dist and served by the backend as static files.
// JSX uses esbuild's automatic runtime (no React plugin); Monaco's workers are bundled through
// `?worker` imports (src/lib/monaco/environment.ts), so they are ES module workers.
const backend = process.env.KANDEV_DEV_BACKEND ?? 'http://127.0.0.1:7420';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  esbuild: { jsx: 'automatic' },
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Monaco and the TypeScript worker are large by nature; splitting them further buys nothing.
    chunkSizeWarningLimit: 8_000,
    rollupOptions: {
      // Radix ships "use client" for React Server Components; a client-only bundle has no use for it.
      onwarn(warning, warn) {
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
  server: {
    proxy: {
      '/api': backend,
      '/lsp': { target: backend.replace(/^http/, 'ws'), ws: true },
    },
  },
});
