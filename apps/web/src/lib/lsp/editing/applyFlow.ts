import type { WorkspaceEdit } from 'vscode-languageserver-protocol';
import { confirmationGroups } from '../edits/annotations.js';
import type { EditConfirmations } from './confirmations.js';
import { fileOperationBatch, isEmptyBatch, withParticipantEdits, type FileOperationParticipant } from './fileOperations.js';
import type { ApplyEditResult } from '../edits/applyResult.js';

export interface ApplyFlow {
  sessionId: string;
  toPath(uri: string): string | undefined;
  confirmations: EditConfirmations;
  /** Every connection of the session that may take part in file operations. */
  participants(): FileOperationParticipant[];
  /** The atomic apply (edits/apply.ts). */
  apply(edit: WorkspaceEdit, expect?: ReadonlyMap<string, number>): Promise<ApplyEditResult>;
  text(key: string, params?: Record<string, unknown>): string;
  /** Fires when the connection that asked ends (a pending confirmation is then declined). */
  ended: { onAbort(listener: () => void): void };
}

/**
 * A WorkspaceEdit (from a server, or a Files panel action of the person), applied:
 * 1. annotations with `needsConfirmation` are listed in a dialog; cancel applies nothing;
 * 2. creates/renames/deletes go to every participant whose server filters them in
 *    (`workspace/will*Files`), and the edits they return are applied with the edit, atomically;
 * 3. after it applied, the same participants hear `workspace/did*Files`.
 */
export async function applyEditWithParticipants(edit: WorkspaceEdit, flow: ApplyFlow, expect?: ReadonlyMap<string, number>): Promise<ApplyEditResult> {
  const groups = confirmationGroups(edit, flow.toPath);
  if (groups.length > 0 && !(await flow.confirmations.ask(flow.sessionId, groups, flow.ended))) {
    return { applied: false, failureReason: flow.text('confirm.declined') };
  }
  const batch = fileOperationBatch(edit);
  if (isEmptyBatch(batch)) return flow.apply(edit, expect);
  const participants = flow.participants();
  const before = (await Promise.all(participants.map((p) => p.willApply(batch).catch(() => [])))).flat();
  const result = await flow.apply(before.length > 0 ? withParticipantEdits(before, edit) : edit, expect);
  if (result.applied) for (const p of participants) p.didApply(batch);
  return result;
}
