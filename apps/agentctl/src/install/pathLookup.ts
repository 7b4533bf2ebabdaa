import type { HostFiles } from './hostFs.js';
import { absoluteEntries, envValue, pathFor, type TaskEnv } from './taskEnv.js';

const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';

/**
 * Finds a tool (`npm`, `go`) the way the task's shell would: the task's PATH, absolute entries only
 * (a relative entry would resolve against agentctl's working directory, i.e. possibly the
 * repository, whose contents are never executed), and PATHEXT on Windows.
 *
 * resolve/ does the same for language servers; the two should share one implementation once both
 * exist (see the install report).
 */
export function findOnPath(name: string, env: TaskEnv, platform: NodeJS.Platform, files: HostFiles): string | undefined {
  const path = pathFor(platform);
  const candidates = platform === 'win32' ? windowsNames(name, env) : [name];
  for (const dir of absoluteEntries(envValue(env, 'PATH', platform), platform)) {
    for (const candidate of candidates) {
      const full = path.join(dir, candidate);
      if (files.isLaunchable(full)) return full;
    }
  }
  return undefined;
}

function windowsNames(name: string, env: TaskEnv): string[] {
  const extensions = (envValue(env, 'PATHEXT', 'win32') ?? DEFAULT_PATHEXT)
    .split(';')
    .map((e) => e.trim())
    .filter((e) => e.startsWith('.'));
  const hasExtension = extensions.some((e) => name.toLowerCase().endsWith(e.toLowerCase()));
  return hasExtension ? [name] : extensions.map((e) => name + e.toLowerCase());
}

/**
 * How to start a found tool. A Windows `.cmd`/`.bat` (npm.cmd) cannot be spawned directly since
 * Node's CVE-2024-27980 fix, so it runs through the task's command interpreter with explicit quoting.
 */
export function commandLine(
  tool: string,
  args: readonly string[],
  env: TaskEnv,
  platform: NodeJS.Platform,
): { command: string; args: string[]; windowsVerbatimArguments: boolean } {
  if (platform !== 'win32' || !/\.(cmd|bat)$/i.test(tool)) return { command: tool, args: [...args], windowsVerbatimArguments: false };
  const line = [tool, ...args].map(quoteForCmd).join(' ');
  return { command: envValue(env, 'ComSpec', platform) ?? 'cmd.exe', args: ['/d', '/s', '/c', `"${line}"`], windowsVerbatimArguments: true };
}

function quoteForCmd(arg: string): string {
  return /[\s"&|<>^()%!,;=]/.test(arg) ? `"${arg.replace(/"/g, '""')}"` : arg;
}
