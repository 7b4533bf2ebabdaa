import { spawn } from 'node:child_process';
import type { TreeRoot } from './treeRoot.js';

/**
 * Windows has no /proc and no POSIX process groups: `taskkill /T /F` ends the root and every process
 * it created (by parent links, as Windows records them), then we wait for the root's exit. A root
 * that already exited has no tree Windows could still walk.
 */
export async function reapWindowsTree(root: TreeRoot): Promise<void> {
  if (root.hasExited()) return;
  await new Promise<void>((resolve) => {
    const killer = spawn('taskkill', ['/pid', String(root.pid), '/T', '/F'], { stdio: 'ignore', windowsHide: true });
    killer.once('error', () => resolve());
    killer.once('exit', () => resolve());
  });
  if (!root.hasExited()) {
    try {
      process.kill(root.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await root.exited;
}
