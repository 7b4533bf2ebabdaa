/** A fuzzy match of a query against a workspace path: a score (higher is better) and the matched character indexes. */
export interface FuzzyMatch {
  path: string;
  score: number;
  indexes: number[];
}

const SEPARATORS = new Set(['/', '_', '-', '.', ' ']);

/**
 * Matches the query's characters in order (case-insensitive; spaces ignored). Consecutive runs,
 * starts of path segments and words, camelCase humps and a hit in the file name score higher, so
 * `sm` finds `src/main.ts` before `assemble.ts`, and shorter paths win ties.
 */
export function fuzzyMatch(query: string, path: string): FuzzyMatch | undefined {
  const q = query.replace(/\s+/g, '').toLowerCase();
  if (!q) return { path, score: 0, indexes: [] };
  const lower = path.toLowerCase();
  const nameStart = path.lastIndexOf('/') + 1;
  const indexes: number[] = [];
  let score = 0;
  let from = 0;
  let previous = -2;
  for (const ch of q) {
    const at = lower.indexOf(ch, from);
    if (at < 0) return undefined;
    indexes.push(at);
    let points = 1;
    if (at === previous + 1) points += 5;
    const before = path[at - 1];
    if (at === 0 || (before !== undefined && SEPARATORS.has(before))) points += 4;
    else if (before !== undefined && before === before.toLowerCase() && path[at] !== path[at]?.toLowerCase()) points += 3;
    if (at >= nameStart) points += 2;
    score += points;
    previous = at;
    from = at + 1;
  }
  // Prefer matches that start in the file name and shorter paths.
  if ((indexes[0] ?? 0) >= nameStart) score += 6;
  score -= path.length * 0.01;
  return { path, score, indexes };
}

/** The best `limit` matches of a query over many paths, best first (ties by path). */
export function rankPaths(query: string, paths: readonly string[], limit = 50): FuzzyMatch[] {
  const out: FuzzyMatch[] = [];
  for (const path of paths) {
    const match = fuzzyMatch(query, path);
    if (match) out.push(match);
  }
  out.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
  return out.slice(0, limit);
}
