import { AGENTCTL_ENV_PREFIX, agentctlLaunchEnv } from '@kandev/protocol';

/**
 * The environment of a Local PC task host: the backend's own, overridden by the task's env (HOME,
 * PATH, GOBIN, ...), plus agentctl's own variables. Inherited AGENTCTL_* are dropped first so a
 * backend started from inside a task host never leaks its parent's token or workspace, and so is
 * KANDEV_TOKEN: the backend's access token must not reach code that a repository controls.
 */
const BACKEND_SECRETS = new Set(['KANDEV_TOKEN']);

export function taskHostEnvironment(
  backendEnv: Record<string, string | undefined>,
  taskEnv: Record<string, string>,
  agentctl: { token: string; workspacePath: string; repoSubpaths: string[]; orphanGraceMs?: number; logFile?: string; logMaxBytes?: number },
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(backendEnv)) {
    if (value !== undefined && !key.startsWith(AGENTCTL_ENV_PREFIX) && !BACKEND_SECRETS.has(key)) env[key] = value;
  }
  for (const [key, value] of Object.entries(taskEnv)) {
    if (!key.startsWith(AGENTCTL_ENV_PREFIX)) env[key] = value;
  }
  // agentctl's stdin is a pipe from this backend: when it closes the backend is gone, and an
  // orphaned task host must stop instead of serving (and spinning) for nobody: at once, or after
  // the restart grace when no restarted backend re-adopted it by then.
  Object.assign(env, agentctlLaunchEnv({ ...agentctl, host: '127.0.0.1', port: 0, exitOnStdinClose: true }));
  return env;
}
