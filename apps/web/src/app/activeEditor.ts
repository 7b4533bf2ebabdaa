import { Emitter, type Event } from '@kandev/kit';
import type { LanguageId } from '@kandev/protocol';
import type { LspConnection } from '../lib/lsp/connection.js';

/**
 * The Monaco text editor that is the active panel of this window, as the application status bar
 * sees it. Only a mounted Monaco editor showing a file's model publishes one; a loading, binary or
 * failed file, an empty editor area, another route or a phone leaves it undefined (S52, S53, S58).
 */
export interface ActiveEditor {
  sessionId: string;
  path: string;
  /** The catalog language of the file, when a server covers it. */
  language?: LanguageId;
  /** The (session, language) connection of a supported file. */
  connection?: LspConnection;
  cursor?: { line: number; column: number };
}

export class ActiveEditorStore {
  private value: ActiveEditor | undefined;
  private readonly changes = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changes.event;

  get = (): ActiveEditor | undefined => this.value;

  set(next: ActiveEditor | undefined): void {
    if (sameEditor(this.value, next)) return;
    this.value = next;
    this.changes.fire();
  }

  /** Clears only if `owner` (a session id and path) is still what is published. */
  clear(owner?: { sessionId: string; path?: string }): void {
    if (owner && (this.value?.sessionId !== owner.sessionId || (owner.path !== undefined && this.value?.path !== owner.path))) return;
    this.set(undefined);
  }
}

function sameEditor(a: ActiveEditor | undefined, b: ActiveEditor | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return (
    a.sessionId === b.sessionId &&
    a.path === b.path &&
    a.language === b.language &&
    a.connection === b.connection &&
    a.cursor?.line === b.cursor?.line &&
    a.cursor?.column === b.cursor?.column
  );
}
