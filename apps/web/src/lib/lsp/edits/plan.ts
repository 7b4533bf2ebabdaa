import { isRecord } from '@kandev/protocol';
import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { isTextEdit } from './textEdits.js';

/** One step of a WorkspaceEdit, in the order the server gave, with workspace-relative paths. */
export type EditStep =
  | { kind: 'edit'; path: string; edits: TextEdit[] }
  | { kind: 'create'; path: string; overwrite: boolean; ignoreIfExists: boolean }
  | { kind: 'rename'; from: string; to: string; overwrite: boolean; ignoreIfExists: boolean }
  | { kind: 'delete'; path: string; recursive: boolean; ignoreIfNotExists: boolean };

export type EditPlan = { ok: true; steps: EditStep[] } | { ok: false; reason: 'outside'; uri: string } | { ok: false; reason: 'invalid' };

/**
 * WorkspaceEdit (`documentChanges` when present, else `changes`) -> ordered steps. Every URI must
 * be inside the session's workspace: one outside refuses the whole edit, since applying only
 * part of a rename would leave the code broken. Annotated edits are taken as plain edits.
 */
export function planWorkspaceEdit(edit: WorkspaceEdit, toPath: (uri: string) => string | undefined): EditPlan {
  if (!isRecord(edit)) return { ok: false, reason: 'invalid' };
  const steps: EditStep[] = [];
  const path = (uri: unknown): string | { outside: string } | undefined => {
    if (typeof uri !== 'string') return undefined;
    const p = toPath(uri);
    return p === undefined || p === '' ? { outside: uri } : p;
  };
  const edits = (list: unknown): TextEdit[] | undefined => {
    if (!Array.isArray(list) || !list.every(isTextEdit)) return undefined;
    return list.map((e) => ({ range: e.range, newText: e.newText }));
  };
  if (Array.isArray(edit.documentChanges)) {
    for (const change of edit.documentChanges as unknown[]) {
      if (!isRecord(change)) return { ok: false, reason: 'invalid' };
      const options = isRecord(change.options) ? change.options : {};
      if (change.kind === 'create' || change.kind === 'delete') {
        const p = path(change.uri);
        if (p === undefined) return { ok: false, reason: 'invalid' };
        if (typeof p !== 'string') return { ok: false, reason: 'outside', uri: p.outside };
        steps.push(
          change.kind === 'create'
            ? { kind: 'create', path: p, overwrite: options.overwrite === true, ignoreIfExists: options.ignoreIfExists === true }
            : { kind: 'delete', path: p, recursive: options.recursive === true, ignoreIfNotExists: options.ignoreIfNotExists === true },
        );
      } else if (change.kind === 'rename') {
        const from = path(change.oldUri);
        const to = path(change.newUri);
        if (from === undefined || to === undefined) return { ok: false, reason: 'invalid' };
        if (typeof from !== 'string') return { ok: false, reason: 'outside', uri: from.outside };
        if (typeof to !== 'string') return { ok: false, reason: 'outside', uri: to.outside };
        steps.push({ kind: 'rename', from, to, overwrite: options.overwrite === true, ignoreIfExists: options.ignoreIfExists === true });
      } else {
        const doc = isRecord(change.textDocument) ? change.textDocument : undefined;
        const p = path(doc?.uri);
        const list = edits(change.edits);
        if (p === undefined || !list) return { ok: false, reason: 'invalid' };
        if (typeof p !== 'string') return { ok: false, reason: 'outside', uri: p.outside };
        if (list.length) steps.push({ kind: 'edit', path: p, edits: list });
      }
    }
    return { ok: true, steps };
  }
  if (edit.changes !== undefined) {
    if (!isRecord(edit.changes)) return { ok: false, reason: 'invalid' };
    for (const [uri, raw] of Object.entries(edit.changes)) {
      const p = path(uri);
      const list = edits(raw);
      if (p === undefined || !list) return { ok: false, reason: 'invalid' };
      if (typeof p !== 'string') return { ok: false, reason: 'outside', uri: p.outside };
      if (list.length) steps.push({ kind: 'edit', path: p, edits: list });
    }
  }
  return { ok: true, steps };
}
