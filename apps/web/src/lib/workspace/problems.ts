import { MonacoMarkerSeverity } from '../lsp/providers/monacoEnums.js';
import { parseSessionModelUri, type UriParts } from '../lsp/uris.js';

/** Markers the language-server diagnostics provider sets carry an owner with this prefix (providers/bind.ts). */
export const LSP_MARKER_OWNER_PREFIX = 'kandev-lsp.';

export type ProblemSeverity = 'error' | 'warning' | 'info' | 'hint';

/** The part of a Monaco marker the Problems panel reads. */
export interface MarkerLike {
  resource: Pick<UriParts, 'scheme' | 'authority' | 'path'>;
  owner: string;
  severity: number;
  message: string;
  source?: string;
  code?: string | { value: string };
  startLineNumber: number;
  startColumn: number;
  endLineNumber: number;
  endColumn: number;
}

export interface Problem {
  path: string;
  severity: ProblemSeverity;
  message: string;
  source?: string;
  code?: string;
  range: { startLineNumber: number; startColumn: number; endLineNumber: number; endColumn: number };
}

export interface ProblemCounts {
  error: number;
  warning: number;
  info: number;
  hint: number;
}

export interface ProblemGroup {
  path: string;
  problems: Problem[];
  counts: ProblemCounts;
}

export interface ProblemsView {
  groups: ProblemGroup[];
  counts: ProblemCounts;
  total: number;
}

const SEVERITY_RANK: Record<ProblemSeverity, number> = { error: 0, warning: 1, info: 2, hint: 3 };

export function problemSeverity(monacoSeverity: number): ProblemSeverity {
  if (monacoSeverity >= MonacoMarkerSeverity.Error) return 'error';
  if (monacoSeverity >= MonacoMarkerSeverity.Warning) return 'warning';
  if (monacoSeverity >= MonacoMarkerSeverity.Info) return 'info';
  return 'hint';
}

const emptyCounts = (): ProblemCounts => ({ error: 0, warning: 0, info: 0, hint: 0 });

/**
 * The Problems of one session: language-server markers of the models this session has open,
 * grouped by file (files with errors first, then by path), each group sorted by severity and
 * position. Markers of another session, of a closed file, or of Monaco's own TypeScript worker
 * never show.
 */
export function problemsOf(markers: readonly MarkerLike[], sessionId: string, openPaths: ReadonlySet<string>): ProblemsView {
  const byPath = new Map<string, Problem[]>();
  for (const marker of markers) {
    if (!marker.owner.startsWith(LSP_MARKER_OWNER_PREFIX)) continue;
    const where = parseSessionModelUri(marker.resource);
    if (!where || where.sessionId !== sessionId || !openPaths.has(where.path)) continue;
    const problem: Problem = {
      path: where.path,
      severity: problemSeverity(marker.severity),
      message: marker.message,
      range: { startLineNumber: marker.startLineNumber, startColumn: marker.startColumn, endLineNumber: marker.endLineNumber, endColumn: marker.endColumn },
    };
    if (marker.source) problem.source = marker.source;
    const code = typeof marker.code === 'string' ? marker.code : marker.code?.value;
    if (code) problem.code = code;
    const list = byPath.get(where.path) ?? [];
    list.push(problem);
    byPath.set(where.path, list);
  }
  const counts = emptyCounts();
  const groups: ProblemGroup[] = [...byPath.entries()].map(([path, problems]) => {
    problems.sort(
      (a, b) =>
        SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || a.range.startLineNumber - b.range.startLineNumber || a.range.startColumn - b.range.startColumn,
    );
    const groupCounts = emptyCounts();
    for (const p of problems) {
      groupCounts[p.severity]++;
      counts[p.severity]++;
    }
    return { path, problems, counts: groupCounts };
  });
  groups.sort((a, b) => Number(b.counts.error > 0) - Number(a.counts.error > 0) || a.path.localeCompare(b.path));
  return { groups, counts, total: counts.error + counts.warning + counts.info + counts.hint };
}
