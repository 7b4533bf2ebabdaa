import type { FileOperation } from '@kandev/protocol';
import type { AgentWorkspace } from './agentWorkspace.js';
import { ToolError } from './toolError.js';
import { MAX_ANSWER_CHARS } from './budget.js';
import type { ToolAnswer } from './navigation.js';
import { toLsp, type LspRange } from './positions.js';
import { resolvePlace, openFile, type PlaceArgs } from './toolContext.js';
import { afterIndexing } from './waiting.js';
import { planEdit, unifiedDiff, type PlannedEdit } from './workspaceEdit.js';

interface CodeAction {
  title: string;
  kind?: string;
  edit?: unknown;
  data?: unknown;
}

function diffText(plan: PlannedEdit): string {
  const diffs = plan.changes.map((c) => unifiedDiff(c.path, c.before, c.after)).filter(Boolean);
  const resources = plan.resources.map((r) => (r.kind === 'rename' ? `rename ${r.from} -> ${r.to}` : `${r.kind} ${r.path}`));
  const text = [...resources, ...diffs].join('\n');
  if (text.length <= MAX_ANSWER_CHARS) return text;
  return `${plan.changes.map((c) => `${c.path}: ${c.edits} edits`).join('\n')}\n(diff too long to show; the counts per file are above)`;
}

const CONFLICT_REASONS: Record<string, string> = {
  changed: 'changed on disk since it was read',
  exists: 'already exists',
  missing: 'does not exist',
};

interface Applied {
  ok: boolean;
  text: string;
  /** What the edit would have written, when it was refused: every file and file operation of it. */
  notWritten?: string[];
  /** Why, per path, as the files route reported it. */
  conflicts?: Array<{ path: string; reason: string }>;
}

/** Writes the plan through the files route (all or nothing, each file's version checked). */
async function applyPlan(workspace: AgentWorkspace, plan: PlannedEdit): Promise<Applied> {
  const resources = plan.resources.map((r) => (r.kind === 'rename' ? `rename ${r.from} -> ${r.to}` : `${r.kind} ${r.path}`));
  const everything = [...plan.changes.filter((c) => c.before !== c.after).map((c) => `${c.path} (${c.edits} edit${c.edits === 1 ? '' : 's'})`), ...resources];
  if (plan.outside.length > 0)
    return {
      ok: false,
      text: `not applied: nothing was written; the edit touches files outside the workspace:\n${plan.outside.join('\n')}`,
      notWritten: [...everything, ...plan.outside],
      conflicts: plan.outside.map((path) => ({ path, reason: 'outside the workspace' })),
    };
  const operations: FileOperation[] = [
    ...plan.changes
      .filter((c) => c.before !== c.after)
      .map((c): FileOperation => ({ kind: 'write', path: c.path, content: c.after, baseVersion: c.baseVersion })),
    ...plan.resources,
  ];
  if (operations.length === 0) return { ok: true, text: 'nothing to apply' };
  const outcome = await workspace.files.apply(operations);
  if (outcome.ok) return { ok: true, text: `applied: ${Object.keys(outcome.versions).length} files written` };
  let conflicts: Array<{ path: string; reason: string }> = [{ path: '', reason: outcome.detail }];
  try {
    const body = JSON.parse(outcome.detail) as { conflicts?: Array<{ path: string; reason: string }>; error?: { message?: string } };
    if (body.conflicts) conflicts = body.conflicts.map((c) => ({ path: c.path, reason: CONFLICT_REASONS[c.reason] ?? c.reason }));
    else if (body.error?.message) conflicts = [{ path: '', reason: body.error.message }];
  } catch {
    // not JSON: shown as it came
  }
  const because = conflicts.map((c) => (c.path ? `  ${c.path}: ${c.reason}` : `  ${c.reason}`));
  return {
    ok: false,
    text: `not applied: nothing was written (all or nothing). Not written:\n${everything.map((e) => `  ${e}`).join('\n')}\nBecause:\n${because.join('\n')}`,
    notWritten: everything,
    conflicts,
  };
}

export async function rename(workspace: AgentWorkspace, args: PlaceArgs & { new_name: string; apply: boolean }): Promise<ToolAnswer & { failed?: boolean }> {
  if (args.new_name.trim() === '' || args.new_name.length > 256) throw new ToolError('new_name must be a non-empty identifier of at most 256 characters');
  const place = await resolvePlace(workspace, args);
  const client = place.lease.client;
  if (!client.capabilities.renameProvider) throw new ToolError(`the ${client.language} server does not rename`);
  await afterIndexing(client, workspace.clock);
  const edit = await client.request('textDocument/rename', { textDocument: { uri: place.uri }, position: place.position, newName: args.new_name });
  if (!edit) throw new ToolError(`nothing to rename at ${place.path}:${place.position.line + 1}:${place.position.character + 1}`);
  const plan = await planEdit(workspace, client.workspaceUri, edit);
  const diff = diffText(plan);
  const files = plan.changes.map((c) => ({ path: c.path, edits: c.edits }));
  if (!args.apply) return { text: `${diff}\n(preview: call again with apply: true to write it)`, structured: { applied: false, files, diff } };
  const applied = await applyPlan(workspace, plan);
  if (applied.ok) return { text: `${applied.text}\n${diff}`, structured: { applied: true, files, diff } };
  return {
    text: `${applied.text}\n${diff}`,
    structured: { applied: false, files, diff, not_written: applied.notWritten ?? [], conflicts: applied.conflicts ?? [] },
    failed: true,
  };
}

export async function codeActions(
  workspace: AgentWorkspace,
  args: { path: string; line: number; column: number; end_line?: number | undefined; end_column?: number | undefined; max_results: number },
): Promise<ToolAnswer> {
  const { lease, uri } = await openFile(workspace, args.path);
  const client = lease.client;
  if (!client.capabilities.codeActionProvider) throw new ToolError(`the ${client.language} server offers no code actions`);
  const range: LspRange = { start: toLsp(args.line, args.column), end: toLsp(args.end_line ?? args.line, args.end_column ?? args.column) };
  const published = client.diagnostics.get(uri)?.diagnostics ?? [];
  const overlapping = (published as Array<{ range: LspRange }>).filter((d) => d.range.start.line <= range.end.line && d.range.end.line >= range.start.line);
  const result = (await client.request('textDocument/codeAction', {
    textDocument: { uri },
    range,
    context: { diagnostics: overlapping, only: ['quickfix'] },
  })) as CodeAction[] | null;
  const actions = (result ?? []).slice(0, args.max_results);
  const parts: string[] = [];
  const structured: Array<Record<string, unknown>> = [];
  for (const action of actions) {
    let edit = action.edit;
    if (!edit && action.data !== undefined && client.capabilities.codeActionProvider && typeof client.capabilities.codeActionProvider === 'object') {
      const resolved = (await client.request('codeAction/resolve', action).catch(() => undefined)) as CodeAction | undefined;
      edit = resolved?.edit;
    }
    const plan = edit ? await planEdit(workspace, client.workspaceUri, edit) : undefined;
    const diff = plan ? diffText(plan) : '(no edit: the action runs a server command, which agents cannot run here)';
    parts.push(`## ${action.title}\n${diff}`);
    structured.push({ title: action.title, kind: action.kind, diff });
  }
  const header = `${actions.length} quick fixes at ${args.path}:${args.line}:${args.column}`;
  const text = [header, ...parts].join('\n');
  return {
    text: text.length <= MAX_ANSWER_CHARS ? text : [header, ...structured.map((s) => `## ${String(s.title)}`), '(edits too long to show)'].join('\n'),
    structured: { actions: structured },
  };
}
