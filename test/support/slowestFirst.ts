import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Starts the slowest files first, from the durations a whole run recorded (test/durations.json,
 * written by `node scripts/record-test-durations.mjs` after `npm test`). With two files at a time,
 * a long file started last keeps one lane busy while the other idles; started first, it overlaps
 * the short ones. Vitest's own ordering uses a cache a fresh clone does not have. A file with no
 * recorded time (new) goes first, as if it were slow, so it cannot become the tail either.
 */
const root = join(import.meta.dirname, '../..');

function recordedSeconds(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(join(root, 'test/durations.json'), 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/** `files` (paths from the repository root) ordered by `seconds`, longest and unrecorded first. */
export function slowestFirst(files: string[], seconds: Record<string, number>): string[] {
  const cost = (file: string) => seconds[file] ?? Number.POSITIVE_INFINITY;
  return [...files].sort((a, b) => cost(b) - cost(a));
}

export class SlowestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const byPath = new Map(files.map((file) => [relative(root, file.moduleId), file]));
    return slowestFirst([...byPath.keys()], recordedSeconds()).map((path) => byPath.get(path)!);
  }
}
