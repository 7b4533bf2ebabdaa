import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');
/** The web app as it ships (no test hooks). */
export const webDist = 'apps/web/dist';
/** Its test twin: the same app plus the window hooks browser tests read; test stacks serve it. */
export const webTestDist = 'apps/web/dist-test';

type Target = 'agentctl' | 'backend' | 'fake-lsp-server' | 'web' | 'web-test';

const webSources = [
  'apps/web/src',
  'apps/web/index.html',
  'apps/web/bench-monaco.html',
  'apps/web/vite.config.ts',
  'packages/protocol/src',
  'packages/kit/src',
];

/** What each build target reads and writes, to rebuild only when a source is newer. */
const targets: Record<Target, { output: string; sources: string[] }> = {
  agentctl: { output: 'apps/agentctl/dist/agentctl.mjs', sources: ['apps/agentctl/src', 'packages/protocol/src'] },
  backend: { output: 'apps/backend/dist/backend.mjs', sources: ['apps/backend/src', 'packages/protocol/src'] },
  'fake-lsp-server': { output: 'test/fixtures/dist/fake-lsp-server.mjs', sources: ['test/fixtures/fake-lsp-server', 'packages/protocol/src'] },
  web: { output: 'apps/web/dist/index.html', sources: webSources },
  // The test twin of the web app (window test hooks); browser test stacks serve it.
  'web-test': { output: 'apps/web/dist-test/index.html', sources: webSources },
};

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

function isFresh(target: Target): boolean {
  const { output, sources } = targets[target];
  try {
    const built = statSync(join(repoRoot, output)).mtimeMs;
    return sources.every((s) => newestMtime(join(repoRoot, s)) <= built);
  } catch {
    return false;
  }
}

const checked = new Set<Target>();

/** Builds a target of scripts/build.mjs when its output is missing or stale, so tests run what ships. */
export function ensureBuilt(target: Target): void {
  if (checked.has(target)) return;
  if (!isFresh(target)) execFileSync(process.execPath, [join(repoRoot, 'scripts/build.mjs'), target], { stdio: 'pipe' });
  checked.add(target);
}
