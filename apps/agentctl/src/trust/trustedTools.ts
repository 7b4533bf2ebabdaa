import { realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { languageDescriptor, type HostToolProbe, type LanguageId, type TrustedToolPins } from '@kandev/protocol';
import { findOnPath } from '../env/pathLookup.js';
import type { TaskEnv } from '../env/taskEnv.js';
import { findImportedBuildFiles } from './buildFiles.js';
import { isInside, launchableFiles as launchable } from './untrustedEnv.js';

/**
 * What the backend needs to guard an untrusted server (docs/workspace-trust.md), as its language's
 * untrusted-workspace rule names it:
 *
 * - `tools`: each host tool of the rule's `hostTools`, found by its probe, keyed by its id. The
 *   broker pins the server to it (typescript-language-server's `tsserver.path`, pyright's
 *   `python.pythonPath`), so the repository cannot choose what the server runs.
 * - `buildFiles`: the workspace files a `refuse_when_build_files` guard names, as found.
 *
 * Nothing that resolves inside the workspace is ever returned as a tool.
 */
interface ProbeContext {
  launcher: string;
  guardedEnv: TaskEnv;
  platform: NodeJS.Platform;
}
type ProbeOf<K extends HostToolProbe['kind']> = (probe: Extract<HostToolProbe, { kind: K }>, context: ProbeContext) => string | undefined;

const PROBES: { [K in HostToolProbe['kind']]: ProbeOf<K> } = {
  package_file_next_to_launcher: (probe, { launcher }) => packageFileNextTo(launcher, probe.package, probe.file),
  program_on_guarded_path: (probe, { guardedEnv, platform }) => {
    for (const name of probe.candidates) {
      const found = findOnPath(name, guardedEnv, platform, launchable);
      if (found) return found;
    }
    return undefined;
  },
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
  const pins: TrustedToolPins = {};
  const tools: Record<string, string> = {};
  for (const probe of rule.hostTools) {
    const found = (PROBES[probe.kind] as ProbeOf<HostToolProbe['kind']>)(probe, { launcher, guardedEnv, platform });
    if (found && !isInside(found, workspaceReal, platform)) tools[probe.tool] = found;
  }
  if (Object.keys(tools).length > 0) pins.tools = tools;
  if (rule.initialize.kind === 'refuse_when_build_files') pins.buildFiles = findImportedBuildFiles(workspaceReal, rule.initialize.buildFiles);
  return pins;
}

/**
 * `file` of npm package `pkg` as Node resolves that package from the launcher's real location (the
 * copy the server itself would load), real path, or undefined. The package's folder is found from
 * its resolved entry point upwards, so a package whose `exports` hide `package.json` still counts.
 */
export function packageFileNextTo(launcher: string, pkg: string, file: string): string | undefined {
  try {
    const entry = createRequire(realpathSync(launcher)).resolve(pkg);
    const root = packageRootOf(entry, pkg);
    if (!root) return undefined;
    const found = realpathSync(join(root, file));
    return statSync(found).isFile() ? found : undefined;
  } catch {
    return undefined;
  }
}

/** The `node_modules/<pkg>` folder above a file of that package. */
function packageRootOf(entry: string, pkg: string): string | undefined {
  const tail = join('node_modules', pkg);
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) if (dir.endsWith(tail)) return dir;
  return undefined;
}

/**
 * The `typescript/lib` folder as Node resolves TypeScript from the launcher's real location (the
 * TypeScript installed with the server), or undefined.
 */
export function typescriptLibNextTo(launcher: string): string | undefined {
  const main = packageFileNextTo(launcher, 'typescript', 'lib/typescript.js');
  return main ? dirname(main) : undefined;
}
