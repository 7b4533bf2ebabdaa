// Builds the runnable artifacts: one-file bundles for agentctl (so it can be copied into a
// container), the backend and the fake language server, and the web app with Vite (the production
// bundle in apps/web/dist, its test twin with window test hooks in apps/web/dist-test).
// Usage: node scripts/build.mjs [agentctl] [backend] [fake-lsp-server] [web] [web-test]   (no argument: all)
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installAddon } from './lib/watcherAddon.mjs';
import { precompress } from './precompress.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const node = {
  platform: 'node',
  target: 'node20',
  format: 'esm',
  bundle: true,
  sourcemap: 'linked',
  logLevel: 'warning',
  // Bundled CommonJS dependencies (ws) call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __kandevCreateRequire } from 'node:module'; const require = __kandevCreateRequire(import.meta.url);" },
};

/** ws' optional `bufferutil` addon, resolved to packages/node-transport's word-at-a-time masking. */
const wordMask = join(root, 'packages/node-transport/src/socket/wordMask.ts');

const targets = {
  agentctl: async () => {
    await build({
      ...node,
      entryPoints: [join(root, 'apps/agentctl/src/main.ts')],
      outfile: join(root, 'apps/agentctl/dist/agentctl.mjs'),
      // ws' optional native validator is not needed and not present in a container; its masking
      // addon is the word-at-a-time JavaScript below (the backend masks every frame it sends here).
      external: ['utf-8-validate'],
      alias: { bufferutil: wordMask },
    });
    copyWatcherAddon();
  },
  backend: () =>
    build({
      ...node,
      entryPoints: [join(root, 'apps/backend/src/main.ts')],
      outfile: join(root, 'apps/backend/dist/backend.mjs'),
      // Native and Docker client modules stay in node_modules; our workspace packages are inlined.
      external: ['better-sqlite3', 'dockerode', 'utf-8-validate'],
      // ws' optional masking addon, as JavaScript that works a word at a time: browsers mask every
      // frame, and ws' own fallback unmasks them a byte at a time.
      alias: { bufferutil: wordMask },
    }),
  'fake-lsp-server': () =>
    build({ ...node, entryPoints: [join(root, 'test/fixtures/fake-lsp-server/main.ts')], outfile: join(root, 'test/fixtures/dist/fake-lsp-server.mjs') }),
  web: () => buildWeb('production', 'dist'),
  // The same app with the window hooks browser tests read; the test stacks serve it, never users.
  'web-test': () => buildWeb('test', 'dist-test'),
};

/**
 * The file watcher's native addon (@parcel/watcher's prebuilt binary for this platform) beside the
 * one-file bundle, which loads it from there (apps/agentctl/src/watch/nativeWatcher.ts); the Local
 * Docker executor mounts it next to the bundle. A platform without a prebuild gets none, and
 * agentctl then polls what pages have in view. Never written in place: running agentctls have it
 * loaded (scripts/lib/watcherAddon.mjs).
 */
function copyWatcherAddon() {
  const libc = process.platform === 'linux' ? (process.report.getReport().header.glibcVersionRuntime ? '-glibc' : '-musl') : '';
  const target = join(root, 'apps/agentctl/dist/parcel-watcher.node');
  try {
    const pkg = createRequire(join(root, 'apps/agentctl/package.json')).resolve(`@parcel/watcher-${process.platform}-${process.arch}${libc}/package.json`);
    installAddon(join(dirname(pkg), 'watcher.node'), target);
  } catch (err) {
    rmSync(target, { force: true });
    console.warn(`no @parcel/watcher addon for ${process.platform}-${process.arch}${libc}: agentctl will poll (${err.message})`);
  }
}

/** The web app's own Vite (apps/web/node_modules when another Vite is hoisted for the test runner). */
function viteCli() {
  const pkg = createRequire(join(root, 'apps/web/package.json')).resolve('vite/package.json');
  return join(dirname(pkg), 'bin/vite.js');
}

/** One Vite build of the web app in `mode` into apps/web/<outDir>, then precompressed siblings. */
async function buildWeb(mode, outDir) {
  const r = spawnSync(process.execPath, [viteCli(), 'build', '--mode', mode, '--logLevel', 'warn'], {
    cwd: join(root, 'apps/web'),
    stdio: 'inherit',
    // What ships is the production build, even when a test runner (NODE_ENV=test) asks for it;
    // the test twin differs only by its `mode` (vite.config.ts).
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (r.status !== 0) throw new Error(`web build (${mode}) failed`);
  // KANDEV_BUILD_PRECOMPRESS=0: a throwaway build nobody downloads over a network (a test's changed
  // copy of the checkout) skips brotli at its best quality, a good part of the web build's time.
  if (process.env.KANDEV_BUILD_PRECOMPRESS === '0') return;
  // Vite empties the folder first, so stale .br/.gz siblings of an older build cannot survive.
  const sizes = await precompress(join(root, 'apps/web', outDir));
  console.log(
    `precompressed web (${outDir}): ${(sizes.raw / 1048576).toFixed(1)} MiB -> brotli ${(sizes.br / 1048576).toFixed(1)} MiB, gzip ${(sizes.gz / 1048576).toFixed(1)} MiB`,
  );
}

const wanted = process.argv.slice(2);
for (const name of wanted.length ? wanted : Object.keys(targets)) {
  const task = targets[name];
  if (!task) {
    console.error(`unknown build target: ${name}`);
    process.exit(2);
  }
  await task();
  console.log(`built ${name}`);
}
