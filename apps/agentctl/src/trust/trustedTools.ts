import { realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { LanguageId, TrustedToolPins } from '@kandev/protocol';
import { findOnPath } from '../env/pathLookup.js';
import type { TaskEnv } from '../env/taskEnv.js';
import { findImportedBuildFiles } from './buildFiles.js';
import { isInside, launchableFiles as launchable } from './untrustedEnv.js';

/**
 * The task-host tools the backend pins an untrusted server to (docs/workspace-trust.md):
 *
 * - typescript: the `tsserver.js` that the launched typescript-language-server resolves from its own
 *   package (what it calls its bundled TypeScript). Without a pinned `tsserver.path` it prefers the
 *   workspace's `node_modules/typescript`, which is repository code.
 * - python: the first `python3` (or `python`) on the already-guarded task PATH, for pyright's
 *   `python.pythonPath`, so a setting pointing into the workspace cannot choose the interpreter.
 *
 * - kotlin: not a pin but what the backend must know: the build files kotlin-lsp would import.
 *
 * Nothing that resolves inside the workspace is ever returned as a tool.
 */
export function findTrustedTools(
  language: LanguageId,
  launcher: string,
  guardedEnv: TaskEnv,
  workspaceReal: string,
  platform: NodeJS.Platform,
): TrustedToolPins {
  if (language === 'typescript') {
    const tsserverPath = tsserverNextTo(launcher);
    return tsserverPath && !isInside(tsserverPath, workspaceReal, platform) ? { tsserverPath } : {};
  }
  if (language === 'python') {
    const pythonPath = findOnPath('python3', guardedEnv, platform, launchable) ?? findOnPath('python', guardedEnv, platform, launchable);
    return pythonPath && !isInside(pythonPath, workspaceReal, platform) ? { pythonPath } : {};
  }
  if (language === 'kotlin') return { buildFiles: findImportedBuildFiles(workspaceReal) };
  return {};
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
