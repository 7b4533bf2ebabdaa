import { isRecord } from '@kandev/protocol';
import type { WorkspaceEdit } from 'vscode-languageserver-protocol';

/** One change a confirmation lists: a text edit of a file, or a file created, renamed or deleted. */
export type AnnotatedChange =
  { kind: 'edit'; path: string } | { kind: 'create'; path: string } | { kind: 'rename'; path: string; to: string } | { kind: 'delete'; path: string };

/** A change annotation the server marked `needsConfirmation`, with the changes that carry it. */
export interface ConfirmationGroup {
  label: string;
  description?: string;
  changes: AnnotatedChange[];
}

/**
 * The groups of a WorkspaceEdit that need the person's confirmation before anything is applied,
 * in the order the server first used them; empty when none does. Only `documentChanges` carry
 * annotation ids (annotated text edits and resource operations). A URI outside the workspace is
 * listed as the URI: planning refuses such an edit anyway, and the person sees what was asked.
 */
export function confirmationGroups(edit: WorkspaceEdit, toPath: (uri: string) => string | undefined): ConfirmationGroup[] {
  if (!isRecord(edit) || !isRecord(edit.changeAnnotations) || !Array.isArray(edit.documentChanges)) return [];
  const annotations = edit.changeAnnotations as Record<string, unknown>;
  const groups = new Map<string, ConfirmationGroup>();
  const path = (uri: unknown) => (typeof uri === 'string' ? toPath(uri) || uri : '');
  const add = (id: unknown, change: AnnotatedChange) => {
    if (typeof id !== 'string') return;
    const annotation = annotations[id];
    if (!isRecord(annotation) || annotation.needsConfirmation !== true) return;
    let group = groups.get(id);
    if (!group) {
      group = { label: typeof annotation.label === 'string' ? annotation.label : id, changes: [] };
      if (typeof annotation.description === 'string' && annotation.description !== '') group.description = annotation.description;
      groups.set(id, group);
    }
    const same = group.changes.some(
      (c) => c.kind === change.kind && c.path === change.path && (c.kind !== 'rename' || change.kind !== 'rename' || c.to === change.to),
    );
    if (!same) group.changes.push(change);
  };
  for (const change of edit.documentChanges as unknown[]) {
    if (!isRecord(change)) continue;
    if (change.kind === 'create' || change.kind === 'delete') add(change.annotationId, { kind: change.kind, path: path(change.uri) });
    else if (change.kind === 'rename') add(change.annotationId, { kind: 'rename', path: path(change.oldUri), to: path(change.newUri) });
    else if (isRecord(change.textDocument) && Array.isArray(change.edits)) {
      for (const e of change.edits as unknown[]) if (isRecord(e)) add(e.annotationId, { kind: 'edit', path: path(change.textDocument.uri) });
    }
  }
  return [...groups.values()];
}
