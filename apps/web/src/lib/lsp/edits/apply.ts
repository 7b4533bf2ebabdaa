import type { ApplyConflict, FileOperation } from '@kandev/protocol';
import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import type { ApplyEditResult } from './applyResult.js';
import { planWorkspaceEdit, type EditStep } from './plan.js';
import { applyTextEdits, OverlappingEditsError } from './textEdits.js';

/** An open editor model: edited in place, as one undo stop. */
export interface EditableModel {
  getVersionId(): number;
  isDirty(): boolean;
  /** Applies LSP text edits (on the current text) as a single undo stop. */
  applyEdits(edits: readonly TextEdit[]): void;
}

export type FilesApplyOutcome = { ok: true; versions: Record<string, string> } | { ok: false; conflicts: ApplyConflict[] };

/** What applying needs from one session's workspace (SessionWorkspace in the app, fakes in tests). */
export interface EditTargets {
  /** The model of a path open in a tab; files without a tab are edited on disk. */
  openModel(path: string): EditableModel | undefined;
  /** Paths open in tabs (a renamed or deleted folder must hold no unsaved one). */
  openPaths?(): readonly string[];
  readFile(path: string): Promise<{ content: string; version: string }>;
  applyFiles(operations: FileOperation[]): Promise<FilesApplyOutcome>;
  /** After the files were written: refresh loaded models, tabs of renamed/deleted files, the tree. */
  afterFilesApplied(change: { written: Map<string, { content: string; version: string }>; renamed: Array<[string, string]>; deleted: string[] }): void;
}

/** Copy for a refused edit; the keys live in the `editing` catalog. */
export type ReasonText = (key: string, params?: Record<string, unknown>) => string;

interface FileState {
  /** Content after the steps so far; undefined until read. */
  content?: string;
  /** Path to read the original content from (a file renamed earlier in the batch). */
  readFrom?: string;
  /** Disk version of what was read (only before the batch touched the file). */
  baseVersion?: string;
}

/**
 * Applies a WorkspaceEdit all or nothing (docs/editing.md):
 * 1. every URI must be in the workspace, every open model still at the version the request saw,
 *    and no open file with unsaved changes may be renamed or deleted;
 * 2. files without a tab are read, edited in memory, and sent as one batch that agentctl checks
 *    (a file changed on disk since it was read refuses the whole batch, nothing written);
 * 3. only then are open models edited, one undo stop each, so the server hears of them as didChange.
 */
export async function applyWorkspaceEdit(
  edit: WorkspaceEdit,
  toPath: (uri: string) => string | undefined,
  targets: EditTargets,
  text: ReasonText,
  expect?: ReadonlyMap<string, number>,
): Promise<ApplyEditResult> {
  const plan = planWorkspaceEdit(edit, toPath);
  if (!plan.ok) return { applied: false, failureReason: plan.reason === 'outside' ? text('apply.outside', { uri: plan.uri }) : text('apply.invalid') };
  for (const [path, version] of expect ?? []) {
    const model = targets.openModel(path);
    if (model && model.getVersionId() !== version) return { applied: false, failureReason: text('apply.stale', { path }) };
  }
  const touchedByResources = new Set<string>();
  for (const step of plan.steps) {
    if (step.kind === 'rename' || step.kind === 'delete') {
      const path = step.kind === 'rename' ? step.from : step.path;
      // The path itself, or an open file inside it when it is a folder: unsaved text would be lost.
      const dirty = [path, ...(targets.openPaths?.() ?? []).filter((p) => p.startsWith(`${path}/`))].find((p) => targets.openModel(p)?.isDirty());
      if (dirty !== undefined) return { applied: false, failureReason: text('apply.dirtyResource', { path: dirty }) };
      touchedByResources.add(path);
      if (step.kind === 'rename') touchedByResources.add(step.to);
    }
    if (step.kind === 'create') touchedByResources.add(step.path);
  }

  const modelEdits = new Map<string, { model: EditableModel; edits: TextEdit[][] }>();
  const files = new Map<string, FileState>();
  const operations: FileOperation[] = [];
  const renamed: Array<[string, string]> = [];
  const deleted: string[] = [];
  const written = new Map<string, { content: string; version: string }>();
  try {
    for (const step of plan.steps) await planStep(step);
  } catch (err) {
    if (err instanceof OverlappingEditsError) return { applied: false, failureReason: text('apply.invalid') };
    if (err instanceof RefusedError) return { applied: false, failureReason: err.reason };
    return { applied: false, failureReason: text('apply.readFailed') };
  }

  async function planStep(step: EditStep): Promise<void> {
    switch (step.kind) {
      case 'edit': {
        const model = touchedByResources.has(step.path) ? undefined : targets.openModel(step.path);
        if (model) {
          let entry = modelEdits.get(step.path);
          if (!entry) modelEdits.set(step.path, (entry = { model, edits: [] }));
          entry.edits.push(step.edits);
          return;
        }
        let state = files.get(step.path);
        if (!state) files.set(step.path, (state = {}));
        if (state.content === undefined) {
          let read;
          try {
            read = await targets.readFile(state.readFrom ?? step.path);
          } catch {
            throw new RefusedError(text('apply.missing', { path: step.path }));
          }
          state.content = read.content;
          if (state.readFrom === undefined) state.baseVersion = read.version;
        }
        state.content = applyTextEdits(state.content, step.edits);
        const op: FileOperation = { kind: 'write', path: step.path, content: state.content };
        if (state.baseVersion !== undefined) op.baseVersion = state.baseVersion;
        state.baseVersion = undefined; // later writes in this batch build on this one
        operations.push(op);
        written.set(step.path, { content: state.content, version: '' });
        return;
      }
      case 'create':
        files.set(step.path, { content: '' });
        operations.push({ kind: 'create', path: step.path, overwrite: step.overwrite, ignoreIfExists: step.ignoreIfExists });
        return;
      case 'rename': {
        const state = files.get(step.from) ?? { readFrom: step.from };
        files.delete(step.from);
        files.set(step.to, state);
        const moved = written.get(step.from);
        if (moved) {
          written.delete(step.from);
          written.set(step.to, moved);
        }
        operations.push({ kind: 'rename', from: step.from, to: step.to, overwrite: step.overwrite, ignoreIfExists: step.ignoreIfExists });
        renamed.push([step.from, step.to]);
        return;
      }
      case 'delete':
        files.delete(step.path);
        written.delete(step.path);
        operations.push({ kind: 'delete', path: step.path, recursive: step.recursive, ignoreIfNotExists: step.ignoreIfNotExists });
        deleted.push(step.path);
        return;
    }
  }

  if (operations.length > 0) {
    let outcome: FilesApplyOutcome;
    try {
      outcome = await targets.applyFiles(operations);
    } catch {
      return { applied: false, failureReason: text('apply.writeFailed') };
    }
    if (!outcome.ok) {
      const paths = [...new Set(outcome.conflicts.map((c) => c.path))].join(', ');
      return { applied: false, failureReason: text('apply.conflict', { paths }) };
    }
    for (const [path, entry] of written) entry.version = outcome.versions[path] ?? '';
    targets.afterFilesApplied({ written, renamed, deleted });
  }
  for (const { model, edits } of modelEdits.values()) {
    // Several edit steps on one model: each set is relative to the text the previous one left.
    for (const set of edits) model.applyEdits(set);
  }
  return { applied: true };
}

class RefusedError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}
