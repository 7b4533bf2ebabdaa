// Builds the runnable artifacts: one-file bundles for agentctl (so it can be copied into a
// container), the backend and the fake language server, and the web app with Vite.
// Usage: node scripts/build.mjs [agentctl] [backend] [fake-lsp-server] [web]   (no argument: all)
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { precompress } from './precompress.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const node = { platform: 'node', target: 'node20', format: 'esm', bundle: true, sourcemap: 'linked', logLevel: 'warning',
  // Bundled CommonJS dependencies (ws) call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __kandevCreateRequire } from 'node:module'; const require = __kandevCreateRequire(import.meta.url);" } };

const targets = {
  agentctl: () => build({ ...node, entryPoints: [join(root, 'apps/agentctl/src/main.ts')], outfile: join(root, 'apps/agentctl/dist/agentctl.mjs'),
    // ws' optional native speedups are not needed and not present in a container.
    external: ['bufferutil', 'utf-8-validate'] }),
  backend: () => build({ ...node, entryPoints: [join(root, 'apps/backend/src/main.ts')], outfile: join(root, 'apps/backend/dist/backend.mjs'),
    // Native and Docker client modules stay in node_modules; our workspace packages are inlined.
    external: ['better-sqlite3', 'dockerode', 'utf-8-validate'],
    // ws' optional masking addon, as JavaScript that works a word at a time: browsers mask every
    // frame, and ws' own fallback unmasks them a byte at a time (apps/backend/src/lsp/wordMask.ts).
    alias: { bufferutil: join(root, 'apps/backend/src/lsp/wordMask.ts') } }),
  'fake-lsp-server': () => build({ ...node, entryPoints: [join(root, 'test/fixtures/fake-lsp-server/main.ts')], outfile: join(root, 'test/fixtures/dist/fake-lsp-server.mjs') }),
  web: async () => {
    const r = spawnSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'], { cwd: join(root, 'apps/web'), stdio: 'inherit',
      // What ships is the production build, even when a test runner (NODE_ENV=test) asks for it.
      env: { ...process.env, NODE_ENV: 'production' } });
    if (r.status !== 0) throw new Error('web build failed');
    // Vite empties dist first, so stale .br/.gz siblings of an older build cannot survive.
    const sizes = precompress(join(root, 'apps/web/dist'));
    console.log(`precompressed web: ${(sizes.raw / 1048576).toFixed(1)} MiB -> brotli ${(sizes.br / 1048576).toFixed(1)} MiB, gzip ${(sizes.gz / 1048576).toFixed(1)} MiB`);
  },
};

const wanted = process.argv.slice(2);
for (const name of wanted.length ? wanted : Object.keys(targets)) {
  const task = targets[name];
  if (!task) { console.error(`unknown build target: ${name}`); process.exit(2); }
  await task();
  console.log(`built ${name}`);
}
