import { Emitter, type Event } from '@kandev/kit';
import type { ProblemCounts } from '../lib/workspace/problems.js';

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

/** The window's workbench state; one per window, owned by its services (services/windowServices.ts). */
export class WorkbenchStore {
  private state: WorkbenchState = { problemsOpen: true, quickOpen: false, shortcutsHelp: false };
  private readonly changes = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changes.event;

  get = (): WorkbenchState => this.state;

  update(patch: Partial<WorkbenchState>): void {
    this.state = { ...this.state, ...patch };
    this.changes.fire();
  }

  /** A session view leaving clears its counts, never another session's. */
  clearProblems(sessionId: string): void {
    if (this.state.problems?.sessionId === sessionId) this.update({ problems: undefined });
  }
}
