import type { Clock } from '@kandev/kit';
import { languageForPath, type LanguageId } from '@kandev/protocol';
import type { AgentLease, AgentWorkspace } from './agentWorkspace.js';
import { checkPath } from './agentWorkspace.js';
import type { DiskFollower } from './diskFollower.js';
import { ToolError } from './toolError.js';
import { renderBudgeted, type BudgetedItem } from './budget.js';
import type { ToolAnswer } from './navigation.js';
import type { LspRange } from './positions.js';
import { toolCall } from './toolCall.js';
import { until } from './waiting.js';

/** A publication counts once the server was quiet this long after it (more may follow at once). */
export const SETTLE_QUIET_MS = 500;
/** A server that published nothing since a disk change is taken as unchanged after this much quiet. */
export const UNCHANGED_QUIET_MS = 3_000;
/** Per-server limit on the wait; gopls loads packages and so gets longer. */
export const DIAGNOSTICS_TIMEOUT_MS: Partial<Record<LanguageId, number>> & { default: number } = { default: 60_000, go: 90_000 };
/** At most this many files per call (git's changed files beyond it are counted, not checked). */
export const MAX_DIAGNOSTIC_FILES = 50;

const SEVERITIES = ['error', 'warning', 'info', 'hint'] as const;
type Severity = (typeof SEVERITIES)[number];
export type Freshness = 'fresh' | 'pending' | 'timed_out' | 'indexing' | 'unavailable';

interface Diagnostic {
  severity: Severity;
  source?: string;
  code?: string;
  range: LspRange;
  message: string;
}

interface FileReport {
  path: string;
  freshness: Freshness;
  detail?: string;
  diagnostics: Diagnostic[];
}

export interface DiagnosticsArgs {
  paths?: string[] | undefined;
  severity: 'error' | 'warning' | 'info' | 'hint';
  max_results: number;
}

function normalized(raw: unknown): Diagnostic | undefined {
  const d = raw as { message?: unknown; range?: LspRange; severity?: unknown; source?: unknown; code?: unknown } | null;
  if (!d || typeof d.message !== 'string' || !d.range) return undefined;
  const out: Diagnostic = { severity: SEVERITIES[(typeof d.severity === 'number' ? d.severity : 1) - 1] ?? 'error', range: d.range, message: d.message };
  if (typeof d.source === 'string') out.source = d.source;
  if (typeof d.code === 'string' || typeof d.code === 'number') out.code = String(d.code);
  return out;
}

/** Pushed and pulled, without the duplicates a server that does both sends. */
function merged(lists: unknown[][]): Diagnostic[] {
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const raw of lists.flat()) {
    const d = normalized(raw);
    if (!d) continue;
    const key = JSON.stringify([d.range, d.message, d.code]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

function changedFiles(follower: DiskFollower): string[] {
  const git = follower.gitState;
  if (!git) throw new ToolError('git state is not known yet for this workspace; pass paths');
  if (!git.available) throw new ToolError(`the workspace has no git changes to check (${git.reason}); pass paths`);
  return git.files.filter((f) => f.status !== 'deleted' && languageForPath(f.path) !== undefined).map((f) => f.path);
}

/**
 * Waits, on the backend's clock, until the server has settled for these files; the freshness of
 * each once settled or at the per-server limit.
 */
async function settle(lease: AgentLease, paths: string[], follower: DiskFollower, clock: Clock): Promise<Map<string, Freshness>> {
  const client = lease.client;
  const limit = DIAGNOSTICS_TIMEOUT_MS[client.language] ?? DIAGNOSTICS_TIMEOUT_MS.default;
  const started = clock.now();
  const quietSince = () => Math.max(client.lastActivityAt, follower.lastChange, started);
  const stateOf = (path: string): Freshness => {
    const sentAt = lease.documents.sentAt(path) ?? 0;
    const published = client.diagnostics.get(lease.documents.uriOf(path));
    const quietFor = clock.now() - quietSince();
    if (client.progress.size > 0) return 'indexing';
    if (!published || published.seq <= sentAt) return 'pending';
    if (published.seq > client.diskMark) return quietFor >= SETTLE_QUIET_MS ? 'fresh' : 'pending';
    return quietFor >= UNCHANGED_QUIET_MS ? 'fresh' : 'pending';
  };
  const allFresh = () => paths.every((p) => stateOf(p) === 'fresh');
  // Said before the wait, so a client that asked for progress knows why the answer is slow.
  if (!allFresh() && !client.ended) toolCall.getStore()?.note(`waiting up to ${Math.round(limit / 1000)} s for the ${client.language} server's diagnostics`);
  // Quiet is a span of time without events: wake when a quiet window or the limit ends, not only on activity.
  while (!allFresh() && clock.now() - started < limit && !client.ended) {
    const now = clock.now();
    const since = quietSince();
    const wake = Math.min(...[since + SETTLE_QUIET_MS, since + UNCHANGED_QUIET_MS, started + limit].filter((at) => at > now));
    // Activity moves the quiet window: wake on it too, to measure the window from it.
    const seq = client.now;
    await until(client, () => allFresh() || client.now !== seq || quietSince() !== since, wake - now, clock);
  }
  const states = new Map<string, Freshness>();
  for (const path of paths) {
    const state = stateOf(path);
    states.set(path, state === 'fresh' || state === 'indexing' ? state : client.diagnostics.has(lease.documents.uriOf(path)) ? 'timed_out' : 'pending');
  }
  return states;
}

async function pulled(lease: AgentLease, uri: string): Promise<unknown[]> {
  if (!lease.client.capabilities.diagnosticProvider) return [];
  try {
    const report = (await lease.client.request('textDocument/diagnostic', { textDocument: { uri } })) as { kind?: string; items?: unknown[] } | null;
    return report?.kind === 'full' && Array.isArray(report.items) ? report.items : [];
  } catch {
    return [];
  }
}

async function reportLanguage(workspace: AgentWorkspace, language: LanguageId, paths: string[], follower: DiskFollower): Promise<FileReport[]> {
  let lease: AgentLease;
  try {
    lease = await workspace.lease(language);
  } catch (err) {
    const detail = err instanceof Error ? err.message : String(err);
    return paths.map((path) => ({ path, freshness: 'unavailable', detail, diagnostics: [] }));
  }
  await lease.documents.syncAll();
  const reports: FileReport[] = [];
  const opened: string[] = [];
  for (const path of paths) {
    try {
      await lease.documents.sync(path);
      opened.push(path);
    } catch (err) {
      reports.push({ path, freshness: 'unavailable', detail: err instanceof Error ? err.message : String(err), diagnostics: [] });
    }
  }
  const states = await settle(lease, opened, follower, workspace.clock);
  for (const path of opened) {
    const uri = lease.documents.uriOf(path);
    const pushed = lease.client.diagnostics.get(uri)?.diagnostics ?? [];
    reports.push({ path, freshness: states.get(path) ?? 'pending', diagnostics: merged([pushed, await pulled(lease, uri)]) });
  }
  return reports;
}

export async function diagnostics(workspace: AgentWorkspace, follower: DiskFollower, args: DiagnosticsArgs): Promise<ToolAnswer> {
  const requested = args.paths && args.paths.length > 0 ? [...new Set(args.paths)] : changedFiles(follower);
  for (const path of requested) checkPath(path);
  const paths = requested.slice(0, MAX_DIAGNOSTIC_FILES);
  const byLanguage = new Map<LanguageId, string[]>();
  const reports: FileReport[] = [];
  for (const path of paths) {
    const language = languageForPath(path);
    if (!language) reports.push({ path, freshness: 'unavailable', detail: 'no language server covers this file', diagnostics: [] });
    else byLanguage.set(language, [...(byLanguage.get(language) ?? []), path]);
  }
  const perLanguage = await Promise.all([...byLanguage].map(([language, files]) => reportLanguage(workspace, language, files, follower)));
  reports.push(...perLanguage.flat());
  reports.sort((a, b) => paths.indexOf(a.path) - paths.indexOf(b.path));
  return render(reports, args, requested.length - paths.length, workspace);
}

function render(reports: FileReport[], args: DiagnosticsArgs, skipped: number, _workspace: AgentWorkspace): ToolAnswer {
  const allowed = SEVERITIES.slice(0, SEVERITIES.indexOf(args.severity) + 1) as readonly Severity[];
  const items: BudgetedItem[] = [];
  const summary: string[] = [];
  const structured = reports.map((r) => {
    const shown = r.diagnostics.filter((d) => allowed.includes(d.severity));
    const counts = SEVERITIES.map((s) => [s, r.diagnostics.filter((d) => d.severity === s).length] as const).filter(([, n]) => n > 0);
    summary.push(
      `${r.path}: ${r.freshness}${r.detail ? ` (${r.detail})` : ''}, ${counts.length ? counts.map(([s, n]) => `${n} ${s}`).join(', ') : 'no problems'}`,
    );
    for (const d of shown) {
      const code = [d.source, d.code].filter(Boolean).join(' ');
      items.push({
        path: r.path,
        line: `${r.path}:${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity}${code ? ` [${code}]` : ''}: ${d.message.split('\n')[0]}`,
      });
    }
    return {
      path: r.path,
      freshness: r.freshness,
      ...(r.detail ? { detail: r.detail } : {}),
      diagnostics: shown.map((d) => ({ ...d, line: d.range.start.line + 1, column: d.range.start.character + 1 })),
    };
  });
  const footer = skipped > 0 ? `(${skipped} more changed files not checked: at most ${MAX_DIAGNOSTIC_FILES} per call; pass paths)` : '';
  const header = `${summary.join('\n')}\n${items.length === 0 ? `no ${allowed.join('/')} diagnostics` : ''}`.trim();
  const rendered = renderBudgeted(header, items, args.max_results, footer);
  return { text: rendered.text, structured: { files: structured, detail: rendered.detail } };
}
