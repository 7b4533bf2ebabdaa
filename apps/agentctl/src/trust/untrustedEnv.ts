import { realpathSync } from 'node:fs';
import type { LanguageId } from '@kandev/protocol';
import { absoluteEntries, envValue, isWindows, pathFor, type TaskEnv } from '../taskEnv.js';

/**
 * The environment overrides of a language server whose workspace is not trusted
 * (docs/workspace-trust.md). Two guards:
 *
 * - PATH loses its relative entries and every entry inside the workspace. Servers run helpers by
 *   bare name with the workspace as their working directory: pyright runs `python3`, gopls runs
 *   `go`, tsserver's typings installer runs `npm`. A PATH entry such as `.venv/bin` or
 *   `/workspace/bin` (an activated virtualenv, a repo's tool folder) would let the repository
 *   choose that program.
 * - Go: `GOTOOLCHAIN=local`, so a `go`/`toolchain` line in the repository's go.mod or go.work never
 *   makes the go command download and run another toolchain (Go 1.21+; older go ignores it).
 */
export function untrustedEnvOverrides(language: LanguageId, env: TaskEnv, workspaceReal: string, platform: NodeJS.Platform): Record<string, string> {
  const overrides: Record<string, string> = { [pathKey(env, platform)]: outsideWorkspacePath(env, workspaceReal, platform) };
  if (language === 'go') overrides.GOTOOLCHAIN = 'local';
  return overrides;
}

/** The task PATH without relative entries and without entries that resolve inside the workspace. */
export function outsideWorkspacePath(env: TaskEnv, workspaceReal: string, platform: NodeJS.Platform): string {
  const kept = absoluteEntries(envValue(env, 'PATH', platform), platform).filter((dir) => !isInside(dir, workspaceReal, platform));
  return kept.join(isWindows(platform) ? ';' : ':');
}

/** True when `dir` (or what it links to) is the workspace or below it. */
export function isInside(dir: string, workspaceReal: string, platform: NodeJS.Platform): boolean {
  const candidates = [dir];
  if (platform === process.platform) {
    try {
      candidates.push(realpathSync(dir));
    } catch {
      // A missing directory holds nothing to run; judged by its spelling alone.
    }
  }
  const p = pathFor(platform);
  const fold = (s: string) => (isWindows(platform) ? s.toLowerCase() : s);
  return candidates.some((c) => {
    const rel = p.relative(fold(workspaceReal), fold(c));
    return rel === '' || (!rel.startsWith('..') && !p.isAbsolute(rel));
  });
}

/** The spelling of PATH the env already uses (Windows: `Path`), so the override replaces it. */
function pathKey(env: TaskEnv, platform: NodeJS.Platform): string {
  if (!isWindows(platform)) return 'PATH';
  return Object.keys(env).find((k) => k.toUpperCase() === 'PATH') ?? 'Path';
}
