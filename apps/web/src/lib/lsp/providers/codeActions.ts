import type * as Monaco from 'monaco-editor';
import type { CodeAction, Command, Diagnostic, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { markKandevProvider } from '../builtins.js';
import type { FeatureRegistration } from '../capabilities.js';
import { DisposableStore, type Disposable } from '@kandev/kit';
import type { ProviderHost } from './host.js';
import { toMonacoRange } from './ranges.js';
import type { CancellationLike } from '../jsonRpc.js';
import { settleKey } from '../settle.js';

type LspAction = CodeAction | Command;

function isCommand(item: LspAction): item is Command {
  return typeof (item as Command).command === 'string';
}

/** Monaco markers (our LSP markers) -> LSP diagnostics for the code action context. */
export function toLspDiagnostic(marker: Monaco.editor.IMarkerData): Diagnostic {
  const severity = marker.severity === 8 ? 1 : marker.severity === 4 ? 2 : marker.severity === 2 ? 3 : 4;
  const diagnostic: Diagnostic = {
    range: {
      start: { line: marker.startLineNumber - 1, character: marker.startColumn - 1 },
      end: { line: marker.endLineNumber - 1, character: marker.endColumn - 1 },
    },
    message: marker.message,
    severity: severity as Diagnostic['severity'],
  };
  if (marker.source) diagnostic.source = marker.source;
  const code = typeof marker.code === 'string' ? marker.code : marker.code?.value;
  // Servers match their own fixes by code; numeric codes went out as strings for Monaco.
  if (code !== undefined && code !== '') diagnostic.code = /^-?\d+$/.test(code) ? Number(code) : code;
  return diagnostic;
}

/** One LSP action as Monaco shows it; running it calls `commandId` with the action's handle. */
export function toMonacoCodeAction(item: LspAction, handle: number, commandId: string): Monaco.languages.CodeAction | undefined {
  if (typeof item?.title !== 'string') return undefined;
  const action: Monaco.languages.CodeAction = { title: item.title, command: { id: commandId, title: item.title, arguments: [handle] } };
  if (!isCommand(item)) {
    if (typeof item.kind === 'string') action.kind = item.kind;
    if (item.isPreferred === true) action.isPreferred = true;
    if (item.disabled && typeof item.disabled.reason === 'string') action.disabled = item.disabled.reason;
  }
  return action;
}

/**
 * The light bulb and Quick Fix (Ctrl/Cmd+.). Every action runs through one Monaco command of
 * this registration: resolve (codeAction/resolve) when the server offers it and the action has no
 * edit yet, apply the edit through the atomic workspace-edit path, then workspace/executeCommand.
 */
export function registerCodeActionProvider(host: ProviderHost, registration: FeatureRegistration<'codeAction'>): Disposable {
  const store = new DisposableStore();
  const { context } = host;
  const resolvable = registration.options.resolveProvider === true;
  const commandId = `kandev.lsp.codeAction.${context.sessionId}.${context.language}.${context.generation}.${registration.id}`;
  const actions = new Map<number, { item: LspAction; path: string; version: number }>();
  let nextHandle = 1;

  const run = async (handle: unknown): Promise<void> => {
    const entry = actions.get(handle as number);
    if (!entry) return;
    let item = entry.item;
    if (isCommand(item)) {
      await executeCommand(item);
      return;
    }
    if (resolvable && !item.edit) {
      try {
        item = (await context.request<CodeAction>('codeAction/resolve', item)) ?? item;
      } catch {
        // the unresolved action may still carry a command
      }
    }
    if (item.edit) {
      const result = await host.applyEdit(item.edit as WorkspaceEdit, new Map([[entry.path, entry.version]]));
      if (!result.applied) {
        host.notify(result.failureReason);
        return;
      }
    }
    // The server must see the edit (didChange) before the command that follows from it.
    context.flush(entry.path);
    if (item.command) await executeCommand(item.command);
  };
  const executeCommand = async (command: Command) => {
    try {
      await context.request('workspace/executeCommand', { command: command.command, arguments: command.arguments });
    } catch (err) {
      const message = (err as { message?: unknown }).message;
      host.notify(typeof message === 'string' && message ? message : host.text('codeAction.failed'));
    }
  };
  store.add(host.registerCommand(commandId, (...args) => run(args[0])));

  const provider: Monaco.languages.CodeActionProvider = {
    async provideCodeActions(model, range, monacoContext, token) {
      const target = host.target(model, registration);
      if (!target) return { actions: [], dispose: () => undefined };
      const version = model.getVersionId();
      const params = {
        textDocument: { uri: target.uri },
        range: {
          start: { line: range.startLineNumber - 1, character: range.startColumn - 1 },
          end: { line: range.endLineNumber - 1, character: range.endColumn - 1 },
        },
        context: {
          diagnostics: monacoContext.markers.map(toLspDiagnostic),
          ...(monacoContext.only ? { only: [monacoContext.only] } : {}),
          triggerKind: monacoContext.trigger === 1 ? 1 : 2,
        },
      };
      const send = (cancel: CancellationLike) => {
        context.flush(target.path);
        return context.request<LspAction[] | null>('textDocument/codeAction', params, cancel);
      };
      let result: LspAction[] | null;
      try {
        if (monacoContext.trigger === 1) {
          // Asked for (Ctrl/Cmd+.): at once, never from an earlier answer.
          result = await send(token);
        } else {
          // The light bulb: once the caret rests, and not again while nothing it depends on changed.
          const key = settleKey(target.path, `codeAction.${registration.id}`);
          const settled = await host.settled.request(key, `${version}\u0000${JSON.stringify(params)}`, host.settleMs.caret, token, send);
          if (settled.kind !== 'answered') return { actions: [], dispose: () => undefined };
          result = settled.value;
        }
      } catch {
        return { actions: [], dispose: () => undefined };
      }
      const handles: number[] = [];
      const list: Monaco.languages.CodeAction[] = [];
      for (const item of Array.isArray(result) ? result : []) {
        const handle = nextHandle++;
        const action = toMonacoCodeAction(item, handle, commandId);
        if (!action) continue;
        if (!isCommand(item) && Array.isArray(item.diagnostics)) {
          action.diagnostics = monacoContext.markers.filter((m) =>
            item.diagnostics?.some((d) => d.message === m.message && toMonacoRange(d.range).startLineNumber === m.startLineNumber),
          );
        }
        actions.set(handle, { item, path: target.path, version });
        handles.push(handle);
        list.push(action);
      }
      // Monaco disposes a list when it is superseded; its handles go with it.
      return { actions: list, dispose: () => handles.forEach((h) => actions.delete(h)) };
    },
  };
  const kinds = registration.options.codeActionKinds;
  store.add(
    host.languages.registerCodeActionProvider(
      host.selector,
      markKandevProvider(provider),
      Array.isArray(kinds) && kinds.length ? { providedCodeActionKinds: kinds } : undefined,
    ),
  );
  store.add({ dispose: () => actions.clear() });
  return store;
}
