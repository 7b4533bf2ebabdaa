/** Writes to one real path are serialized, so "check the version, then rename" is atomic here. */
const locks = new Map<string, Promise<unknown>>();

/** Holds the locks of several real paths at once (taken in sorted order, so two batches cannot deadlock). */
export async function withPathLocks<T>(paths: readonly string[], work: () => Promise<T>): Promise<T> {
  const sorted = [...new Set(paths)].sort();
  const step = (i: number): Promise<T> => (i === sorted.length ? work() : withPathLock(sorted[i] as string, () => step(i + 1)));
  return step(0);
}

export async function withPathLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  const previous = locks.get(path) ?? Promise.resolve();
  const run = previous.then(work, work);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  locks.set(path, settled);
  try {
    return await run;
  } finally {
    if (locks.get(path) === settled) locks.delete(path);
  }
}
