/**
 * Pure readers of git's machine output: `git status --porcelain=v2 --branch -z` and
 * `git diff --numstat -z HEAD`. Kept apart from running git so every shape has a unit test.
 */
import type { GitFileChange, GitFileStatus } from '@kandev/protocol';

export interface StatusReading {
  branch: string | null;
  head: string | null;
  files: GitFileChange[];
}

/** X is the index against HEAD, Y the work tree against the index: together, the change against HEAD. */
function statusOf(xy: string): GitFileStatus | undefined {
  const [x, y] = [xy[0], xy[1]];
  if (x === 'A') return y === 'D' ? undefined : 'added';
  if (x === 'D' || y === 'D') return 'deleted';
  return 'modified';
}

export function parseStatusV2(text: string): StatusReading {
  const reading: StatusReading = { branch: null, head: null, files: [] };
  const fields = text.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const entry = fields[i] as string;
    if (entry === '') continue;
    if (entry.startsWith('# branch.oid ')) {
      const oid = entry.slice('# branch.oid '.length);
      reading.head = oid === '(initial)' ? null : oid;
    } else if (entry.startsWith('# branch.head ')) {
      const head = entry.slice('# branch.head '.length);
      reading.branch = head === '(detached)' ? null : head;
    } else if (entry.startsWith('1 ')) {
      // 1 XY sub mH mI mW hH hI path
      const parts = entry.split(' ');
      const status = statusOf(parts[1] ?? '');
      if (status) reading.files.push({ path: parts.slice(8).join(' '), status });
    } else if (entry.startsWith('2 ')) {
      // 2 XY sub mH mI mW hH hI Xscore path, then the original path as the next field
      const parts = entry.split(' ');
      const from = fields[++i] ?? '';
      reading.files.push({ path: parts.slice(9).join(' '), status: 'renamed', from });
    } else if (entry.startsWith('u ')) {
      // u XY sub m1 m2 m3 mW h1 h2 h3 path: a conflict, shown as modified
      reading.files.push({ path: entry.split(' ').slice(10).join(' '), status: 'modified' });
    } else if (entry.startsWith('? ')) {
      reading.files.push({ path: entry.slice(2), status: 'untracked' });
    }
  }
  return reading;
}

export interface LineCounts {
  added: number;
  deleted: number;
}

/** `git diff --numstat -z`: path -> counts; binary files (`-\t-`) are absent. A rename counts under its new path. */
export function parseNumstat(text: string): Map<string, LineCounts> {
  const counts = new Map<string, LineCounts>();
  const fields = text.split('\0');
  for (let i = 0; i < fields.length; i++) {
    const entry = fields[i] as string;
    if (entry === '') continue;
    const [added, deleted, path] = entry.split('\t');
    let target = path ?? '';
    // A rename: "a\td\t" then the old and the new path as the next two fields.
    if (target === '') {
      i += 2;
      target = fields[i] ?? '';
    }
    if (added === '-' || deleted === '-' || added === undefined || deleted === undefined) continue;
    counts.set(target, { added: Number(added), deleted: Number(deleted) });
  }
  return counts;
}
