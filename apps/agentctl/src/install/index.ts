import { languageDescriptor, type InstallRecipe, type LanguageId } from '@kandev/protocol';
import type { TaskEnv } from '../env/taskEnv.js';
import { resolveDeps, type InstallDeps, type Installer } from './installer.js';
import { goInstaller } from './go.js';
import { HostFiles } from './hostFs.js';
import { npmInstaller } from './npm.js';
import { CANCELLED, type InstallOutcome } from './outcome.js';
import { OutputTail } from './output.js';
import { releaseInstaller } from './release.js';

export type { InstallDeps, Libc } from './installer.js';
export type { InstallOutcome } from './outcome.js';
export type { SpawnFn } from './run.js';
export type { ToHostPath } from './hostFs.js';
export { InstallLock } from './lock.js';
export { findManagedBinary, managedRoot } from './layout.js';
export { rootedHostPath } from './hostFs.js';

export interface InstallRequest {
  language: LanguageId;
  /** The TASK environment (HOME, PATH, GOBIN...), not agentctl's process.env. */
  env: TaskEnv;
  /** Injectable so Windows rules are testable on Linux. */
  platform: NodeJS.Platform;
  /** Teardown: cancel, drain, publish nothing, leave no descendants. */
  signal: AbortSignal;
  /** Installer progress lines (each bounded, and bounded in number). */
  onOutput?: (line: string) => void;
}

type InstallerOf<R extends InstallRecipe> = (recipe: R, binary: string, platform: NodeJS.Platform) => Installer | { guidance: string };

/** The installer of each kind of recipe, or the manual-setup guidance when there is none for this host. */
const INSTALLERS: { [K in InstallRecipe['kind']]: InstallerOf<Extract<InstallRecipe, { kind: K }>> } = {
  npm: (recipe) => npmInstaller(recipe),
  go: (recipe, binary) => goInstaller(recipe, binary),
  release: (recipe, binary, platform) =>
    (recipe.platforms as readonly string[]).includes(platform) ? releaseInstaller(recipe, binary) : { guidance: recipe.otherPlatformGuidance },
  never: (recipe) => ({ guidance: recipe.guidance }),
};

/** Which installer serves a language on this platform, or the manual-setup guidance when none does. */
function installerFor(language: LanguageId, platform: NodeJS.Platform): Installer | { guidance: string } {
  const { install, server } = languageDescriptor(language);
  return (INSTALLERS[install.kind] as InstallerOf<InstallRecipe>)(install, server.binary, platform);
}

/**
 * Installs the language server of `req.language` for the task, or reuses a finished install.
 * Serialized per target and shared between concurrent requests (lock.ts); published atomically
 * (publish.ts); cancelled with its whole process tree on `req.signal` (run.ts, process/reapTree.ts).
 */
export async function installLanguageServer(req: InstallRequest, deps: Partial<InstallDeps> = {}): Promise<InstallOutcome> {
  if (req.signal.aborted) return CANCELLED;
  const installer = installerFor(req.language, req.platform);
  if ('guidance' in installer) return { ok: false, error: { code: 'no_installer', guidance: installer.guidance } };
  const resolved = resolveDeps(deps);
  const key = installer.lockKey(req.env, req.platform);
  return resolved.lock.run(key, { signal: req.signal, onOutput: req.onOutput }, (shared) =>
    installer.install({
      language: req.language,
      env: req.env,
      platform: req.platform,
      signal: shared.signal,
      output: new OutputTail((line) => shared.emit(line)),
      files: new HostFiles(resolved.toHostPath, req.platform),
      deps: resolved,
    }),
  );
}
