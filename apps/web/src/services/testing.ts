import { systemClock } from '@kandev/kit';
import { DEFAULT_SETTINGS, type UserSettings } from '@kandev/protocol';
import type { KandevApi } from '../api/kandevApi.js';
import { AccessWatch } from '../lib/access/accessWatch.js';
import { EditingNotices } from '../lib/lsp/editing/notices.js';
import { ServerMessages } from '../lib/lsp/serverMessages.js';
import { EditingRegistry } from '../lib/lsp/editing/registry.js';
import { LeaseHints, memoryStorage } from '../lib/lsp/leaseHint.js';
import type { MonacoApi } from '../lib/monaco/monacoApi.js';
import type { SessionScope } from './sessionScope.js';
import { SettingsStore } from './settingsStore.js';
import { ActiveEditorStore } from '../app/activeEditor.js';
import { ThemeStore } from '../app/themeStore.js';
import { WorkbenchStore } from '../app/workbench.js';
import { OutlineFeeds } from '../lib/lsp/editing/outlineFeeds.js';
import { WorkerGate } from '../lib/monaco/typescriptWorkerGate.js';
import { SessionFileIndexes } from '../lib/workspace/fileIndex.js';
import type { SessionLive } from './sessionLive.js';
import type { WindowServices } from './windowServices.js';

export interface FakeServicesOptions {
  /** The API methods a test uses; any other method throws, so a test sees what a view really calls. */
  api?: Partial<KandevApi>;
  /** Published settings (undefined: not loaded yet, as before GET /api/settings answers). */
  settings?: Partial<UserSettings>;
  loadMonaco?: () => Promise<MonacoApi>;
  scopes?: Record<string, SessionScope>;
  /** The session lives a view acquires (a test feeds their frames); others throw. */
  lives?: Record<string, SessionLive>;
}

/** Window services for unit tests: fakes wherever the real ones would reach the network, Monaco or storage. */
export function fakeServices(options: FakeServicesOptions = {}): WindowServices & { calls: string[]; left: string[] } {
  const calls: string[] = [];
  const left: string[] = [];
  const given = options.api ?? {};
  const api = new Proxy({} as KandevApi, {
    get(_target, name: string) {
      const method = (given as Record<string, unknown>)[name];
      return (...args: unknown[]) => {
        calls.push(name);
        if (typeof method !== 'function') throw new Error(`api.${name} is not faked in this test`);
        return (method as (...a: unknown[]) => unknown)(...args);
      };
    },
  });
  const settings = new SettingsStore(api);
  if (options.settings) settings.publish({ ...DEFAULT_SETTINGS, ...options.settings });
  const scopes = new Map(Object.entries(options.scopes ?? {}));
  const editing = new EditingRegistry();
  return {
    calls,
    left,
    api,
    access: new AccessWatch(async () => 'ok'),
    settings,
    leaseHints: new LeaseHints(memoryStorage()),
    editing,
    editingNotices: new EditingNotices(),
    serverMessages: new ServerMessages(systemClock),
    loadMonaco: options.loadMonaco ?? (() => new Promise<MonacoApi>(() => undefined)),
    sessions: {
      acquire: (sessionId) => {
        const scope = scopes.get(sessionId);
        if (!scope) throw new Error(`no fake scope for session ${sessionId}`);
        return scope;
      },
      get: (sessionId) => scopes.get(sessionId),
      leave: (sessionId) => void left.push(sessionId),
    },
    live: {
      acquire: (sessionId) => {
        const live = options.lives?.[sessionId];
        if (!live) throw new Error(`no fake live workspace for session ${sessionId}`);
        return { live, dispose: () => undefined };
      },
    },
    workbench: new WorkbenchStore(),
    activeEditor: new ActiveEditorStore(),
    theme: new ThemeStore(),
    typescriptWorker: new WorkerGate(),
    outlines: new OutlineFeeds(editing),
    fileIndexes: new SessionFileIndexes(),
    runFileAction: async () => {
      calls.push('runFileAction');
      return { applied: false, failureReason: 'not faked' };
    },
    dispose: () => undefined,
  };
}
