import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Deletes the files in `dir` whose names match `pattern` and that nobody wrote to for `maxAgeMs`
 * (per-session logs of sessions long gone). Files written since are kept whatever their name; a
 * file that cannot be read or removed is skipped. Returns the names removed.
 */
export function pruneOldLogs(dir: string, pattern: RegExp, maxAgeMs: number, now: number = Date.now()): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!pattern.test(name)) continue;
    const path = join(dir, name);
    try {
      const stat = statSync(path);
      if (!stat.isFile() || now - stat.mtimeMs < maxAgeMs) continue;
      rmSync(path, { force: true });
      removed.push(name);
    } catch {
      // Gone meanwhile, or not ours to remove.
    }
  }
  return removed;
}
