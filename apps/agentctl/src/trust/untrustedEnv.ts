import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { languageDescriptor, type LanguageId } from '@kandev/protocol';
import { findOnPath, type LaunchableCheck } from '../env/pathLookup.js';
import { absoluteEntries, envValue, isWindows, pathFor, type TaskEnv } from '../env/taskEnv.js';

/**
 * The environment overrides of a language server whose workspace is not trusted
 * (docs/workspace-trust.md). Two guards:
 *
 * - PATH loses its relative entries and every entry inside the workspace. Servers run helpers by
 *   bare name with the workspace as their working directory: pyright runs `python3`, gopls runs
 *   `go`, tsserver's typings installer runs `npm`. A PATH entry such as `.venv/bin` or
 *   `/workspace/bin` (an activated virtualenv, a repo's tool folder) would let the repository
 *   choose that program.
 * - The language's own environment guard (its descriptor's untrusted-workspace rule): variables
 *   set outright (Go: `GOTOOLCHAIN=local`, so a `go`/`toolchain` line in go.mod never makes go
 *   download and run another toolchain), and variables pinned to a program found on the guarded
 *   PATH (Rust: `RUSTC`, with the rustc wrappers emptied: cargo runs `rustc` through the
 *   repository's `.cargo/config.toml` otherwise, and environment variables win over config files).
 */
export function untrustedEnvOverrides(
  language: LanguageId,
  env: TaskEnv,
  workspaceReal: string,
  platform: NodeJS.Platform,
  files: LaunchableCheck = launchableFiles,
): Record<string, string> {
  const path = outsideWorkspacePath(env, workspaceReal, platform);
  const overrides: Record<string, string> = { [pathKey(env, platform)]: path };
  const rule = languageDescriptor(language).untrusted;
  if (rule.kind === 'nothing_runs') return overrides;
  Object.assign(overrides, rule.environment.set);
  for (const [variable, program] of Object.entries(rule.environment.pinFromGuardedPath)) {
    const found = findOnPath(program, { ...env, [pathKey(env, platform)]: path }, platform, files);
    if (found !== undefined) overrides[variable] = found;
  }
  return overrides;
}

/** An executable regular file on this host. */
export const launchableFiles: LaunchableCheck = {
  isLaunchable(path: string): boolean {
    try {
      accessSync(path, constants.X_OK);
      return statSync(path).isFile();
    } catch {
      return false;
    }
  },
};

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
