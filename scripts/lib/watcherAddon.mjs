// Puts a native addon into the build output without touching a copy that is already loaded.
// Running agentctl processes have dist/parcel-watcher.node mapped; writing into that file in place
// changes the pages they execute and they crash (SIGSEGV) at the next call into the addon. A new
// file renamed over the old name leaves their inode intact, and an unchanged addon is not written.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * Installs `source` at `target`: nothing when the bytes are already the same, else a temporary
 * sibling written whole and renamed over `target` (atomic on one file system).
 * @returns 'unchanged' or 'replaced'
 */
export function installAddon(source, target) {
  const bytes = readFileSync(source);
  let current;
  try {
    current = readFileSync(target);
  } catch {
    current = undefined;
  }
  if (current && current.equals(bytes)) return 'unchanged';
  const temp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
  try {
    writeFileSync(temp, bytes, { mode: 0o755 });
    renameSync(temp, target);
  } catch (err) {
    rmSync(temp, { force: true });
    throw err;
  }
  return 'replaced';
}
