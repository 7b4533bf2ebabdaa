import { resolve } from 'node:path';
import { fail, ok, type Result } from './base/result.js';

export interface CliOptions {
  demo: boolean;
  workspaces: string[];
  help: boolean;
}

export const USAGE = `Usage: kandev [--demo] [--workspace DIR]...

  --demo            seed the demo task (TypeScript, Python and Go) from demo/workspace
  --workspace DIR   create (or reuse) a Local PC task for the folder DIR
  --help            show this help

Environment: KANDEV_PORT (7420), KANDEV_HOST (127.0.0.1), KANDEV_HOME (~/.kandev),
KANDEV_TOKEN (a fixed access token; default: generated into KANDEV_HOME/access-token),
KANDEV_ALLOWED_ORIGINS, KANDEV_LSP_MAX_CONNECTIONS, KANDEV_LSP_RESTART_LIMIT,
KANDEV_LSP_REQUEST_TIMEOUT_MS, KANDEV_WEB_DIR, KANDEV_AGENTCTL_BUNDLE,
KANDEV_AGENTCTL_COMMAND, KANDEV_AGENTCTL_START_TIMEOUT_MS, KANDEV_AGENTCTL_STOP_GRACE_MS.
`;

export function parseCli(argv: readonly string[]): Result<CliOptions, string> {
  const options: CliOptions = { demo: false, workspaces: [], help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--demo') options.demo = true;
    else if (arg === '--help' || arg === '-h') options.help = true;
    else if (arg === '--workspace' || arg.startsWith('--workspace=')) {
      const value = arg === '--workspace' ? argv[++i] : arg.slice('--workspace='.length);
      if (!value) return fail('--workspace needs a folder');
      options.workspaces.push(resolve(value));
    } else return fail(`unknown argument: ${arg}`);
  }
  return ok(options);
}
