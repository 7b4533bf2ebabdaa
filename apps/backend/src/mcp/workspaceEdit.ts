import type { FileOperation } from '@kandev/protocol';
import type { AgentWorkspace } from './agentWorkspace.js';
import { ToolError } from './toolError.js';
import { displayPath, isRange, type LspRange } from './positions.js';

interface TextEdit {
  range: LspRange;
  newText: string;
}

export interface FileChange {
  path: string;
  before: string;
  after: string;
  baseVersion: string;
  edits: number;
}

export interface PlannedEdit {
  changes: FileChange[];
  /** Resource operations (create, rename, delete files) the edit also asks for. */
  resources: FileOperation[];
  /** Edits on files outside the workspace: never written, reported. */
  outside: string[];
}

interface DocumentChange {
  kind?: string;
  uri?: string;
  oldUri?: string;
  newUri?: string;
  options?: Record<string, boolean>;
  textDocument?: { uri?: string };
  edits?: unknown;
}
interface WorkspaceEditLike {
  documentChanges?: unknown;
  changes?: unknown;
}

/** A WorkspaceEdit (changes or documentChanges) as text edits by URI plus resource operations. */
function editsByUri(edit: WorkspaceEditLike): { byUri: Map<string, TextEdit[]>; resources: DocumentChange[] } {
  const byUri = new Map<string, TextEdit[]>();
  const resources: DocumentChange[] = [];
  const add = (uri: string, edits: unknown) => {
    if (!Array.isArray(edits)) return;
    const list = byUri.get(uri) ?? [];
    for (const e of edits as Array<{ range?: unknown; newText?: unknown }>)
      if (isRange(e?.range) && typeof e.newText === 'string') list.push({ range: e.range, newText: e.newText });
    byUri.set(uri, list);
  };
  if (Array.isArray(edit.documentChanges)) {
    for (const change of edit.documentChanges as DocumentChange[]) {
      if (typeof change?.kind === 'string') resources.push(change);
      else if (typeof change?.textDocument?.uri === 'string') add(change.textDocument.uri, change.edits);
    }
  } else if (edit.changes && typeof edit.changes === 'object') {
    for (const [uri, edits] of Object.entries(edit.changes as Record<string, unknown>)) add(uri, edits);
  }
  return { byUri, resources };
}

function offsetOf(lineStarts: number[], text: string, line: number, character: number): number {
  const start = lineStarts[line];
  if (start === undefined) return text.length;
  return Math.min(start + character, lineStarts[line + 1] ?? text.length);
}

export function applyTextEdits(text: string, edits: TextEdit[]): string {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const spans = edits
    .map((e) => ({
      from: offsetOf(lineStarts, text, e.range.start.line, e.range.start.character),
      to: offsetOf(lineStarts, text, e.range.end.line, e.range.end.character),
      text: e.newText,
    }))
    .sort((a, b) => b.from - a.from || b.to - a.to);
  let out = text;
  for (const span of spans) out = out.slice(0, span.from) + span.text + out.slice(span.to);
  return out;
}

/** Reads every file the edit touches from disk (with its version, for the write's check) and applies it in memory. */
export async function planEdit(workspace: AgentWorkspace, workspaceUri: string, edit: unknown): Promise<PlannedEdit> {
  if (!edit || typeof edit !== 'object') return { changes: [], resources: [], outside: [] };
  const { byUri, resources } = editsByUri(edit as WorkspaceEditLike);
  const changes: FileChange[] = [];
  const outside: string[] = [];
  for (const [uri, edits] of byUri) {
    const path = displayPath(workspaceUri, uri);
    if (path === uri) {
      outside.push(uri);
      continue;
    }
    const file = await workspace.files.read(path);
    changes.push({ path, before: file.content, after: applyTextEdits(file.content, edits), baseVersion: file.version, edits: edits.length });
  }
  const operations: FileOperation[] = [];
  for (const r of resources) {
    const rel = (uri: unknown) => (typeof uri === 'string' ? displayPath(workspaceUri, uri) : '');
    if (r.kind === 'create') operations.push({ kind: 'create', path: rel(r.uri), ...(r.options ?? {}) });
    else if (r.kind === 'rename') operations.push({ kind: 'rename', from: rel(r.oldUri), to: rel(r.newUri), ...(r.options ?? {}) });
    else if (r.kind === 'delete') operations.push({ kind: 'delete', path: rel(r.uri), ...(r.options ?? {}) });
  }
  for (const op of operations) {
    const paths = op.kind === 'rename' ? [op.from, op.to] : [op.path];
    if (paths.some((p) => p.startsWith('file:'))) throw new ToolError(`the edit touches a file outside the workspace: ${paths.join(' -> ')}`);
  }
  return { changes, resources: operations, outside };
}

/** A unified diff of one file (three lines of context), as `diff -u` would print it. */
export function unifiedDiff(path: string, before: string, after: string): string {
  if (before === after) return '';
  const a = before.split('\n');
  const b = after.split('\n');
  // Lines kept in common at both ends; what lies between differs. Hunks are then split where
  // the middle has long runs of equal lines (an edit per occurrence keeps the lines in step).
  const hunks: string[] = [];
  let i = 0;
  const ops: Array<{ kind: ' ' | '-' | '+'; text: string; ai: number; bi: number }> = [];
  let bi = 0;
  // Rename edits never add or remove lines but only change them, unless a newText has newlines;
  // a line-by-line walk with a small lookahead keeps this exact for both.
  while (i < a.length || bi < b.length) {
    if (i < a.length && bi < b.length && a[i] === b[bi]) {
      ops.push({ kind: ' ', text: a[i] as string, ai: i, bi });
      i++;
      bi++;
      continue;
    }
    const resync = findResync(a, b, i, bi);
    for (; i < resync.ai; i++) ops.push({ kind: '-', text: a[i] as string, ai: i, bi });
    for (; bi < resync.bi; bi++) ops.push({ kind: '+', text: b[bi] as string, ai: i, bi });
  }
  const CONTEXT = 3;
  let k = 0;
  while (k < ops.length) {
    if ((ops[k] as { kind: string }).kind === ' ') {
      k++;
      continue;
    }
    let start = Math.max(0, k - CONTEXT);
    let end = k;
    while (end < ops.length) {
      let next = end;
      while (next < ops.length && (ops[next] as { kind: string }).kind !== ' ') next++;
      let equal = next;
      while (equal < ops.length && (ops[equal] as { kind: string }).kind === ' ') equal++;
      if (equal < ops.length && equal - next <= CONTEXT * 2) {
        end = equal;
        continue;
      }
      end = Math.min(ops.length, next + CONTEXT);
      break;
    }
    const slice = ops.slice(start, end);
    const first = slice[0] as { ai: number; bi: number };
    const aLen = slice.filter((o) => o.kind !== '+').length;
    const bLen = slice.filter((o) => o.kind !== '-').length;
    hunks.push(`@@ -${first.ai + 1},${aLen} +${first.bi + 1},${bLen} @@\n${slice.map((o) => `${o.kind}${o.text}`).join('\n')}`);
    k = end;
    start = end;
  }
  return `--- a/${path}\n+++ b/${path}\n${hunks.join('\n')}`;
}

/** The nearest pair of positions at which the two texts agree again. */
function findResync(a: string[], b: string[], ai: number, bi: number): { ai: number; bi: number } {
  for (let distance = 1; distance < a.length + b.length; distance++) {
    for (let da = 0; da <= distance; da++) {
      const x = ai + da;
      const y = bi + (distance - da);
      if (x > a.length || y > b.length) continue;
      if (x === a.length && y === b.length) return { ai: x, bi: y };
      if (x < a.length && y < b.length && a[x] === b[y] && (a[x + 1] === b[y + 1] || x + 1 === a.length)) return { ai: x, bi: y };
    }
  }
  return { ai: a.length, bi: b.length };
}
