import { realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { languageDescriptor, type HostToolsProbe, type LanguageId, type TrustedToolPins, type UntrustedWorkspaceRule } from '@kandev/protocol';
import { findOnPath } from '../env/pathLookup.js';
import type { TaskEnv } from '../env/taskEnv.js';
import { findImportedBuildFiles } from './buildFiles.js';
import { isInside, launchableFiles as launchable } from './untrustedEnv.js';

/**
 * The task-host tools the backend pins an untrusted server to (docs/workspace-trust.md), by the
 * probe its language's untrusted-workspace rule names:
 *
 * - tsserver_next_to_launcher: the `tsserver.js` that the launched typescript-language-server
 *   resolves from its own package (what it calls its bundled TypeScript). Without a pinned
 *   `tsserver.path` it prefers the workspace's `node_modules/typescript`, which is repository code.
 * - python_on_guarded_path: the first `python3` (or `python`) on the already-guarded task PATH, for
 *   pyright's `python.pythonPath`, so a setting pointing into the workspace cannot choose the interpreter.
 * - imported_build_files: not a pin but what the backend must know: the workspace files the rule's
 *   `refuse_when_build_files` guard names (kotlin-lsp's Gradle build), as found.
 *
 * Nothing that resolves inside the workspace is ever returned as a tool.
 */
type GuardedRule = Extract<UntrustedWorkspaceRule, { kind: 'guarded' }>;
type Probe = (launcher: string, guardedEnv: TaskEnv, workspaceReal: string, platform: NodeJS.Platform, rule: GuardedRule) => TrustedToolPins;

const PROBES: Readonly<Record<HostToolsProbe, Probe>> = {
  none: () => ({}),
  tsserver_next_to_launcher: (launcher, _env, workspaceReal, platform) => {
    const tsserverPath = tsserverNextTo(launcher);
    return tsserverPath && !isInside(tsserverPath, workspaceReal, platform) ? { tsserverPath } : {};
  },
  python_on_guarded_path: (_launcher, guardedEnv, workspaceReal, platform) => {
    const pythonPath = findOnPath('python3', guardedEnv, platform, launchable) ?? findOnPath('python', guardedEnv, platform, launchable);
    return pythonPath && !isInside(pythonPath, workspaceReal, platform) ? { pythonPath } : {};
  },
  imported_build_files: (_launcher, _env, workspaceReal, _platform, rule) => ({
    buildFiles: findImportedBuildFiles(workspaceReal, rule.initialize.kind === 'refuse_when_build_files' ? rule.initialize.buildFiles : []),
  }),
};

export function findTrustedTools(
  language: LanguageId,
  launcher: string,
  guardedEnv: TaskEnv,
  workspaceReal: string,
  platform: NodeJS.Platform,
): TrustedToolPins {
  const rule = languageDescriptor(language).untrusted;
  // A server that runs nothing of the workspace needs no pin.
  if (rule.kind === 'nothing_runs') return {};
  return PROBES[rule.hostTools](launcher, guardedEnv, workspaceReal, platform, rule);
}

/**
 * The `typescript/lib` folder as Node resolves TypeScript from the launcher's real location (the
 * TypeScript installed with the server), or undefined.
 */
export function typescriptLibNextTo(launcher: string): string | undefined {
  try {
    const typescriptMain = realpathSync(createRequire(realpathSync(launcher)).resolve('typescript'));
    return statSync(typescriptMain).isFile() ? dirname(typescriptMain) : undefined;
  } catch {
    return undefined;
  }
}

/** `typescript/lib/tsserver.js` as Node resolves it from the launcher's real location, or undefined. */
export function tsserverNextTo(launcher: string): string | undefined {
  try {
    const real = realpathSync(launcher);
    const typescriptMain = createRequire(real).resolve('typescript');
    const tsserver = realpathSync(typescriptMain.replace(/typescript\.js$/, 'tsserver.js'));
    return statSync(tsserver).isFile() ? tsserver : undefined;
  } catch {
    return undefined;
  }
}
