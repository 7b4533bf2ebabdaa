import type { LanguageId } from '@kandev/protocol';
import { Emitter, type Event } from '@kandev/kit';
import type { LspConnection } from './connection.js';

export function connectionKey(sessionId: string, language: LanguageId): string {
  return `${sessionId}\u0000${language}`;
}

/**
 * The window-wide map (session, language) -> connection: editors of one window share one
 * connection per key. It only maps keys; each connection owns its own lifecycle.
 */
export class LspConnectionRegistry {
  private readonly connections = new Map<string, LspConnection>();
  private readonly changed = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changed.event;

  get(sessionId: string, language: LanguageId): LspConnection | undefined {
    return this.connections.get(connectionKey(sessionId, language));
  }

  getOrCreate(sessionId: string, language: LanguageId, create: () => LspConnection): LspConnection {
    const key = connectionKey(sessionId, language);
    let connection = this.connections.get(key);
    if (!connection) {
      connection = create();
      this.connections.set(key, connection);
      this.changed.fire();
    }
    return connection;
  }

  /** Replaces the connection of a key: the old one is disposed first and can touch nothing after (S33). */
  replace(sessionId: string, language: LanguageId, create: () => LspConnection): LspConnection {
    const key = connectionKey(sessionId, language);
    this.connections.get(key)?.dispose();
    this.connections.delete(key);
    const connection = create();
    this.connections.set(key, connection);
    this.changed.fire();
    return connection;
  }

  /** Disposes one connection; its neighbours are untouched (S30). */
  delete(sessionId: string, language: LanguageId): void {
    const key = connectionKey(sessionId, language);
    const connection = this.connections.get(key);
    if (!connection) return;
    this.connections.delete(key);
    connection.dispose();
    this.changed.fire();
  }

  forSession(sessionId: string): LspConnection[] {
    return [...this.connections.values()].filter((c) => c.sessionId === sessionId);
  }

  all(): LspConnection[] {
    return [...this.connections.values()];
  }

  dispose(): void {
    for (const connection of this.connections.values()) connection.dispose();
    this.connections.clear();
    this.changed.dispose();
  }
}
