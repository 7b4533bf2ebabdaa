import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { languageGrammars } from './languageGrammars.js';

// The web app is built into apps/web/dist and served by the backend as static files.
// `--mode test` builds its test twin into apps/web/dist-test: the same app plus the window hooks
// browser tests read (src/app/testHooks.ts); the browser test stacks serve that one.
// JSX uses esbuild's automatic runtime (no React plugin); Monaco's workers are bundled through
// `?worker` imports (src/lib/monaco/environment.ts), so they are ES module workers.
/** A module only Monaco's core holds (its code editor widget), to name the chunk that has it. */
const MONACO_CORE = /[\\/]monaco-editor[\\/]esm[\\/]vs[\\/]editor[\\/]browser[\\/]widget[\\/]codeEditor[\\/]codeEditorWidget\.js$/;
const backend = process.env.KANDEV_DEV_BACKEND ?? 'http://127.0.0.1:7420';

export default defineConfig(({ mode }) => ({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  esbuild: { jsx: 'automatic' },
  define: { 'import.meta.env.KANDEV_TEST_HOOKS': JSON.stringify(mode === 'test') },
  worker: { format: 'es' },
  // The grammars the language descriptors name, each a lazy chunk (languageGrammars.ts).
  plugins: [languageGrammars()],
  build: {
    outDir: mode === 'test' ? 'dist-test' : 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Monaco and the TypeScript worker are large by nature; the worker loads only when a built-in
    // TypeScript feature is needed (src/lib/monaco/typescriptWorkerGate.ts).
    chunkSizeWarningLimit: 8_000,
    rollupOptions: {
      // bench-monaco.html: a bare Monaco page from the same build, the floor `npm run bench` compares
      // the real editor's first load with. It shares Monaco's chunks with the app.
      input: {
        index: fileURLToPath(new URL('index.html', import.meta.url)),
        'bench-monaco': fileURLToPath(new URL('bench-monaco.html', import.meta.url)),
      },
      output: {
        // Rolldown names a chunk that both pages share after one of its modules (Monaco's core came
        // out as "toggleHighContrast"); the core of the editor is named for what it is, so a network
        // panel, and the first-load test, can tell it apart from lib/monaco's small "monaco" chunk.
        chunkFileNames: (chunk) => (chunk.moduleIds.some((id) => MONACO_CORE.test(id)) ? 'assets/monaco-core-[hash].js' : 'assets/[name]-[hash].js'),
      },
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
}));
