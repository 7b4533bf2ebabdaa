import { Emitter, type Event } from '@kandev/kit';
import type { ProblemCounts } from '../lib/workspace/problems.js';
import { useSnapshot } from './useSnapshot.js';

/**
 * Window-wide workbench state that lives outside one view: the Problems counts of the session on
 * screen (the status bar shows them), whether its Problems panel is open, and the dialogs the
 * keyboard opens from anywhere (quick open, shortcuts help).
 */
export interface WorkbenchState {
  problems?: { sessionId: string; counts: ProblemCounts };
  problemsOpen: boolean;
  quickOpen: boolean;
  shortcutsHelp: boolean;
}

let state: WorkbenchState = { problemsOpen: true, quickOpen: false, shortcutsHelp: false };
const changes = new Emitter<void>();

export const workbench = {
  get: (): WorkbenchState => state,
  onDidChange: changes.event as Event<void>,
  update(patch: Partial<WorkbenchState>): void {
    state = { ...state, ...patch };
    changes.fire();
  },
  /** A session view leaving clears its counts, never another session's. */
  clearProblems(sessionId: string): void {
    if (state.problems?.sessionId === sessionId) workbench.update({ problems: undefined });
  },
};

export function useWorkbench(): WorkbenchState {
  return useSnapshot(workbench.onDidChange, workbench.get);
}
