/**
 * Tool answers are budgeted: an agent's context is precious. An answer is rendered at the most
 * detailed level that fits MAX_ANSWER_CHARS (full lines with one line of context, then without
 * context, then counts per file), never cut in the middle.
 */
export const MAX_ANSWER_CHARS = 12_000;
export const DEFAULT_MAX_RESULTS = 100;
export const MAX_RESULTS_CAP = 1000;

export type Detail = 'full' | 'no_context' | 'counts';

export interface BudgetedItem {
  path: string;
  /** `path:line:col ...` */
  line: string;
  context?: string;
}

/** Renders items grouped as given, at the richest level that fits; says how many were left out. */
export function renderBudgeted(header: string, items: BudgetedItem[], maxResults: number, footer = ''): { text: string; detail: Detail } {
  const shown = items.slice(0, maxResults);
  const more = items.length - shown.length;
  const tail = [more > 0 ? `(${more} more not shown; raise max_results or narrow the query)` : '', footer].filter(Boolean).join('\n');
  for (const detail of ['full', 'no_context'] as const) {
    const lines = shown.flatMap((item) => (detail === 'full' && item.context !== undefined ? [item.line, `    ${item.context.trim()}`] : [item.line]));
    const text = [header, ...lines, tail].filter(Boolean).join('\n');
    if (text.length <= MAX_ANSWER_CHARS) return { text, detail };
  }
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.path, (counts.get(item.path) ?? 0) + 1);
  const lines = [...counts].map(([path, count]) => `${path}: ${count}`);
  const text = [header, '(too many to list; counts per file)', ...lines].join('\n');
  return { text: text.length <= MAX_ANSWER_CHARS ? text : `${text.slice(0, MAX_ANSWER_CHARS - 40)}\n(list of files shortened)`, detail: 'counts' };
}

export function clampMaxResults(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_RESULTS;
  return Math.max(1, Math.min(MAX_RESULTS_CAP, Math.floor(value)));
}
