import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './build.js';
import { prerequisite } from './env.js';

/**
 * The OS watch limit, for real and for agentctl alone: agentctl runs in a user namespace of its
 * own whose inotify watch limit (`/proc/sys/user/max_inotify_watches`, counted per user namespace)
 * is lowered below what the workspace needs. @parcel/watcher then fails with ENOSPC exactly as on a
 * machine whose `fs.inotify.max_user_watches` is used up, and nothing outside that namespace (no
 * other process, no sysctl of the machine) is touched.
 */
export function agentctlWithWatchLimit(limit: number): Record<string, string> {
  const bundle = join(repoRoot, 'apps/agentctl/dist/agentctl.mjs');
  const command = ['unshare', '--user', '--map-root-user', 'sh', '-c', `echo ${limit} > /proc/sys/user/max_inotify_watches && exec node "$0"`, bundle];
  return { KANDEV_AGENTCTL_COMMAND: JSON.stringify(command) };
}

function userNamespaces(): boolean {
  try {
    execFileSync('unshare', ['--user', '--map-root-user', 'sh', '-c', 'echo 1 > /proc/sys/user/max_inotify_watches'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const canLimitWatches = () => prerequisite(userNamespaces(), 'user namespaces (util-linux unshare --user --map-root-user)');
