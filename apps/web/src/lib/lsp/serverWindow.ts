/**
 * What the page does for a server's `window/*` messages (docs/editing.md, "What servers say"):
 * `showMessage` becomes a toast, `showMessageRequest` a toast with its actions whose choice goes
 * back, `showDocument` opens a workspace file as a tab at its range, and an http(s) page only
 * after the person agreed. Anything else (a file outside the workspace, `javascript:`, `data:`)
 * is refused, and every answer says truthfully whether it was shown.
 */
import { isRecord, type WorkspaceIdentity } from '@kandev/protocol';
import type { MessageActionItem, ShowDocumentParams, ShowDocumentResult } from 'vscode-languageserver-protocol';
import { workspaceRelativePath } from './uris.js';
import { severityOf, type MessageSource, type PendingAnswer, type ServerMessages } from './serverMessages.js';

/** A position in an opened file (1-based, Monaco's). */
export interface FilePosition {
  lineNumber: number;
  column: number;
}

export interface ServerWindowEnv {
  messages: ServerMessages;
  /** Opens a workspace file as a tab at the position; resolves whether a tab shows it now. */
  openFile(path: string, position: FilePosition | undefined, selection: ShowDocumentParams['selection']): Promise<boolean>;
  /** Opens an external page in a new browser tab (never called without the person's agreement). */
  openExternal(uri: string): void;
}

/** One connection's answers to its server's window requests. */
export interface ServerWindow {
  showMessage(params: unknown): void;
  showMessageRequest(params: unknown): PendingAnswer<MessageActionItem | null>;
  showDocument(params: unknown, workspace: WorkspaceIdentity | undefined): PendingAnswer<ShowDocumentResult>;
}

const settled = <T>(value: T): PendingAnswer<T> => ({ answer: Promise.resolve(value), cancel: () => undefined });

/** http and https only: the links a person can judge and a browser tab can show safely. */
export function isExternalWebUri(uri: string): boolean {
  try {
    const url = new URL(uri);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export function createServerWindow(source: MessageSource, env: ServerWindowEnv): ServerWindow {
  return {
    showMessage(params) {
      if (!isRecord(params) || typeof params.message !== 'string' || params.message.trim() === '') return;
      env.messages.show(source, severityOf(params.type), params.message);
    },
    showMessageRequest(params) {
      if (!isRecord(params) || typeof params.message !== 'string') return settled(null);
      const items = Array.isArray(params.actions) ? params.actions.filter((a): a is MessageActionItem => isRecord(a) && typeof a.title === 'string') : [];
      const pending = env.messages.ask(
        source,
        severityOf(params.type),
        params.message,
        items.map((a) => a.title),
      );
      // The server gets back the very item it offered (with any extra members it put there).
      return { answer: pending.answer.then((index) => (index === null ? null : (items[index] ?? null))), cancel: pending.cancel };
    },
    showDocument(params, workspace) {
      if (!isRecord(params) || typeof params.uri !== 'string') return settled({ success: false });
      const uri = params.uri;
      const p = params as unknown as ShowDocumentParams;
      if (uri.startsWith('file:')) {
        const path = workspace ? workspaceRelativePath(workspace.workspaceUri, uri) : undefined;
        if (!path) return settled({ success: false });
        const start = p.selection?.start;
        const position = start ? { lineNumber: start.line + 1, column: start.character + 1 } : undefined;
        return { answer: env.openFile(path, position, p.selection).then((success) => ({ success })), cancel: () => undefined };
      }
      if (!isExternalWebUri(uri)) return settled({ success: false });
      const asked = env.messages.confirmExternal(source, uri);
      return {
        answer: asked.answer.then((agreed) => {
          if (agreed) env.openExternal(uri);
          return { success: agreed };
        }),
        cancel: asked.cancel,
      };
    },
  };
}
