import { envValue, isWindows, type TaskEnv } from '../env/taskEnv.js';

/** How to spawn a found launcher: a language server's, or an installer's tool (npm, go). */
export interface LaunchCommand {
  command: string;
  args: string[];
  /** Windows: pass the cmd.exe command line as built, without Node re-quoting it. */
  windowsVerbatimArguments: boolean;
}

/** Characters that mean nothing to cmd.exe; an argument made only of them needs no quotes. */
const CMD_PLAIN = /^[A-Za-z0-9_\-.:\\/@+]+$/;

function quoteForCmd(arg: string): string {
  // Inside quotes cmd.exe metacharacters (& | < > ^ ( ) , ; = and spaces) are inert; quotes double.
  // %VAR% would still expand, but every argument here is agentctl's own (flags, paths, packages).
  return `"${arg.replace(/"/g, '""')}"`;
}

/**
 * How to start a resolved launcher. Windows cannot CreateProcess a `.cmd`/`.bat` (npm's shims,
 * npm.cmd itself): they run through the task's command interpreter, which Node refuses to do
 * implicitly since CVE-2024-27980, with the launcher always quoted and every argument that is not
 * plainly inert (empty ones included) quoted too.
 */
export function launchCommand(launcher: string, args: readonly string[], platform: NodeJS.Platform, env: TaskEnv): LaunchCommand {
  if (isWindows(platform) && /\.(cmd|bat)$/i.test(launcher)) {
    const comspec = envValue(env, 'ComSpec', platform) ?? 'cmd.exe';
    const line = [quoteForCmd(launcher), ...args.map((a) => (CMD_PLAIN.test(a) ? a : quoteForCmd(a)))].join(' ');
    return { command: comspec, args: ['/d', '/s', '/c', `"${line}"`], windowsVerbatimArguments: true };
  }
  return { command: launcher, args: [...args], windowsVerbatimArguments: false };
}
