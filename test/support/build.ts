import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');
const built = new Set<string>();

/** Builds a target of scripts/build.mjs once per test process, so tests run what ships. */
export function ensureBuilt(target: 'agentctl' | 'backend' | 'fake-lsp-server' | 'web'): void {
  if (built.has(target)) return;
  execFileSync(process.execPath, [join(repoRoot, 'scripts/build.mjs'), target], { stdio: 'pipe' });
  built.add(target);
}
