/** The outcome of applying a WorkspaceEdit, as `workspace/applyEdit` answers it. */
export type ApplyEditResult = { applied: true } | { applied: false; failureReason: string };
