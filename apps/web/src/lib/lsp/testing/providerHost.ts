/** A ProviderHost over the fake Monaco for provider unit tests; each member can be overridden. */
import { systemClock, toDisposable } from '@kandev/kit';
import { SettledRequests } from '../settle.js';
import { DEFAULT_PREFERENCES } from '../editing/preferences.js';
import { EditingRegistry } from '../editing/registry.js';
import type { FeatureContext } from '../features.js';
import { documentTarget, sessionSelector, type ProviderHost } from '../providers/host.js';
import { serverFileUri } from '../uris.js';
import type { createFakeMonaco } from './fakeMonaco.js';

export function fakeProviderHost(
  fake: ReturnType<typeof createFakeMonaco>,
  context: FeatureContext,
  overrides: Partial<ProviderHost> = {},
): ProviderHost & { notices: string[] } {
  const notices: string[] = [];
  return {
    context,
    languages: fake.monaco.languages,
    selector: sessionSelector(context.language),
    target: (model, registration) => documentTarget(context, model, registration),
    targetUri: (path) => (context.isOpen(path) ? serverFileUri(context.workspace.workspaceUri, path) : undefined),
    toModelUri: (u) => fake.monaco.Uri.parse(u),
    preload: async () => undefined,
    applyEdit: async () => ({ applied: true }),
    registerCommand: (id, handler) => {
      const d = fake.monaco.editor.registerCommand(id, (_a: unknown, ...args: unknown[]) => handler(...args));
      return toDisposable(() => d.dispose());
    },
    preferences: () => DEFAULT_PREFERENCES,
    editing: new EditingRegistry(),
    text: (key, params) => (params ? `${key} ${JSON.stringify(params)}` : key),
    notify: (message) => void notices.push(message),
    failureText: (failure) => `failure ${JSON.stringify(failure)}`,
    foldingKind: () => undefined,
    onDocumentSync: context.onDocumentSync,
    // No wait unless a test says so: a provider call reaches the fake server at once.
    settled: new SettledRequests(systemClock),
    settleMs: { caret: 0, text: 0 },
    versionOf: () => undefined,
    whenDrawing: async () => true,
    recordWordList: () => undefined,
    serveWordLists: () => ({ dispose: () => undefined }),
    ...overrides,
    notices,
  };
}
