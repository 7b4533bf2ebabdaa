import type * as Monaco from 'monaco-editor';
import type { CodeLens } from 'vscode-languageserver-protocol';
import { isRecord } from '@kandev/protocol';
import { DisposableStore, type Disposable } from '@kandev/kit';
import { markKandevProvider } from '../builtins.js';
import type { FeatureRegistration, ServerCapabilityIndex } from '../capabilities.js';
import type { ProviderHost } from './host.js';
import { lensAction, lensTargets, toMonacoCodeLens } from './codeLensMapping.js';

/** Does the server execute this command (its executeCommandProvider, static or registered)? */
export function serverExecutes(capabilities: ServerCapabilityIndex, name: string): boolean {
  const lists: unknown[] = [capabilities.server.executeCommandProvider?.commands];
  for (const reg of capabilities.dynamicRegistrations()) {
    if (reg.method === 'workspace/executeCommand' && isRecord(reg.registerOptions)) lists.push(reg.registerOptions.commands);
  }
  return lists.some((list) => Array.isArray(list) && list.includes(name));
}

/**
 * Code lenses above their lines, when the language's switch is on (docs/editing.md). Lenses are
 * asked per model and resolved lazily (codeLens/resolve, as Monaco brings each into view);
 * `workspace/codeLens/refresh` asks again. A lens's server command runs through
 * workspace/executeCommand after the document is flushed, so the server acts on what is shown;
 * what the command edits comes back as workspace/applyEdit and goes through the atomic apply path.
 * Lenses are asked and handed to Monaco only while the page is drawn (ProviderHost.whenDrawing).
 */
export function registerCodeLensProvider(host: ProviderHost, registration: FeatureRegistration<'codeLens'>): Disposable {
  if (!host.preferences().codeLens) return { dispose: () => undefined };
  const store = new DisposableStore();
  const { context } = host;
  const resolvable = registration.options.resolveProvider === true;
  const commandId = `kandev.lsp.codeLens.${context.sessionId}.${context.language}.${context.generation}.${registration.id}`;
  const lenses = new Map<number, { lens: CodeLens; path: string }>();
  let nextHandle = 1;
  const serverRuns = (name: string) => serverExecutes(context.capabilities, name);
  const toMonaco = (lens: CodeLens, handle: number) => toMonacoCodeLens(lens, handle, commandId, serverRuns, (u) => host.toModelUri(u));

  store.add(
    host.registerCommand(commandId, async (handle) => {
      const entry = lenses.get(handle as number);
      if (!entry?.lens.command) return;
      const action = lensAction(entry.lens.command, serverRuns);
      if (action.kind !== 'server') return;
      context.flush(entry.path);
      try {
        await context.request('workspace/executeCommand', { command: action.command.command, arguments: action.command.arguments });
      } catch (err) {
        const message = (err as { message?: unknown }).message;
        host.notify(typeof message === 'string' && message ? message : host.text('codeLens.failed'));
      }
    }),
  );

  const provider: Monaco.languages.CodeLensProvider = {
    onDidChange: ((listener: () => void) => context.onCodeLensRefresh(listener)) as Monaco.IEvent<Monaco.languages.CodeLensProvider>,
    async provideCodeLenses(model, token) {
      const target = host.target(model, registration);
      if (!target) return null;
      // Asked and handed over only while the page is drawn: a background tab's lenses come when
      // the person is back, current, and Monaco draws and resolves them then.
      if (!(await host.whenDrawing(token))) return null;
      context.flush(target.path);
      let result: CodeLens[] | null;
      try {
        result = await context.request<CodeLens[] | null>('textDocument/codeLens', { textDocument: { uri: target.uri } }, token);
      } catch {
        return null;
      }
      const handles: number[] = [];
      const list: Monaco.languages.CodeLens[] = [];
      const targets: string[] = [];
      for (const lens of Array.isArray(result) ? result : []) {
        const handle = nextHandle++;
        const mapped = toMonaco(lens, handle);
        if (!mapped) continue;
        lenses.set(handle, { lens, path: target.path });
        handles.push(handle);
        list.push(mapped);
        targets.push(...lensTargets(lens));
      }
      // Monaco's peek previews only loaded models: a resolved count's targets are loaded first.
      await host.preload(targets);
      // The tab may have gone to the background while the server answered.
      if (!(await host.whenDrawing(token))) {
        handles.forEach((h) => lenses.delete(h));
        return null;
      }
      // Monaco disposes a list when it asks again; its handles go with it.
      return { lenses: list, dispose: () => handles.forEach((h) => lenses.delete(h)) };
    },
  };
  if (resolvable) {
    provider.resolveCodeLens = async (_model, codeLens, token) => {
      const handle = Number(codeLens.id);
      const entry = lenses.get(handle);
      if (!entry || entry.lens.command) return codeLens;
      let resolved: CodeLens | null;
      try {
        resolved = await context.request<CodeLens | null>('codeLens/resolve', entry.lens, token);
      } catch {
        return codeLens;
      }
      if (!resolved || token.isCancellationRequested) return codeLens;
      entry.lens = resolved;
      await host.preload(lensTargets(resolved));
      return toMonaco(resolved, handle) ?? codeLens;
    };
  }
  store.add(host.languages.registerCodeLensProvider(host.selector, markKandevProvider(provider)));
  store.add({ dispose: () => lenses.clear() });
  return store;
}
