import type { CatalogLanguage } from '../catalog/catalog.js';
import { absoluteOrUndefined, envValue, isWindows, type HostFlavour, type TaskEnv } from './flavour.js';

/**
 * The task's home: HOME, or USERPROFILE on Windows when HOME is unset. Always the TASK env's value,
 * never agentctl's os.homedir() (S09: an executor may override HOME).
 */
export function taskHome(env: TaskEnv, flavour: HostFlavour): string | undefined {
  const home = absoluteOrUndefined(envValue(env, 'HOME', flavour), flavour);
  if (home !== undefined) return home;
  return isWindows(flavour) ? absoluteOrUndefined(envValue(env, 'USERPROFILE', flavour), flavour) : undefined;
}

/** `$HOME/.kandev/lsp-servers` of the task env. */
export function managedRoot(env: TaskEnv, flavour: HostFlavour): string | undefined {
  const home = taskHome(env, flavour);
  return home === undefined ? undefined : flavour.path.join(home, '.kandev', 'lsp-servers');
}

/**
 * Directories of the managed root that may hold this language's launcher. Mirrors the layout the
 * installers publish (install/layout.ts), so "installed?" and "where?" cannot disagree:
 * npm servers in <root>/<language>/node_modules/.bin, rust-analyzer in <root>/rust. Go uses Go's own
 * bin dirs (goBinDirectories) and Kotlin is a manual install found on PATH only.
 */
export function managedDirectories(language: CatalogLanguage, root: string, flavour: HostFlavour): string[] {
  const base = flavour.path.join(root, language.id);
  if (language.installStrategy === 'npm') return [flavour.path.join(base, 'node_modules', '.bin')];
  if (language.installStrategy === 'release') return [base];
  return [];
}

/**
 * Where `go install` publishes with the task's Go env (S07, S08): GOBIN, each GOPATH entry's bin,
 * then Go's default GOPATH (HOME/go, or USERPROFILE\go on Windows). Absolute entries only.
 */
export function goBinDirectories(env: TaskEnv, flavour: HostFlavour): string[] {
  const p = flavour.path;
  const out: string[] = [];
  const add = (dir: string | undefined) => {
    if (dir !== undefined && !out.includes(dir)) out.push(dir);
  };
  add(absoluteOrUndefined(envValue(env, 'GOBIN', flavour), flavour));
  const gopath = envValue(env, 'GOPATH', flavour);
  if (gopath) {
    for (const entry of gopath.split(isWindows(flavour) ? ';' : ':')) {
      const dir = absoluteOrUndefined(entry, flavour);
      if (dir !== undefined) add(p.join(dir, 'bin'));
    }
  }
  const home = absoluteOrUndefined(envValue(env, 'HOME', flavour), flavour);
  if (home !== undefined) add(p.join(home, 'go', 'bin'));
  if (isWindows(flavour)) {
    const profile = absoluteOrUndefined(envValue(env, 'USERPROFILE', flavour), flavour);
    if (profile !== undefined) add(p.join(profile, 'go', 'bin'));
  }
  return out;
}
