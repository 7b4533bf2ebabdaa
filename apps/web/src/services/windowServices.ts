import { DisposableStore, systemClock, type Disposable } from '@kandev/kit';
import { sessionEventsPath, type LanguageId } from '@kandev/protocol';
import i18next from 'i18next';
import { createKandevApi, type KandevApi } from '../api/kandevApi.js';
import { isLocale, serverLocale } from '../i18n/i18n.js';
import { AccessWatch } from '../lib/access/accessWatch.js';
import { preloadCodicons } from '../lib/monaco/preloadCodicons.js';
import { warmSuggestWhenIdle } from '../lib/monaco/suggestWarmup.js';
import { ignoreMonacoCancellations } from '../lib/monaco/monacoCancellations.js';
import { BuiltinSuppression } from '../lib/lsp/builtins.js';
import { LspConnection } from '../lib/lsp/connection.js';
import { applyWorkspaceEdit } from '../lib/lsp/edits/apply.js';
import type { ApplyEditResult } from '../lib/lsp/edits/applyResult.js';
import { runFileAction as runFileActionOn } from './fileActionRunner.js';
import type { FileAction } from '../lib/workspace/fileActions.js';
import { EditingNotices } from '../lib/lsp/editing/notices.js';
import { QuickSuggestPacing } from '../lib/monaco/quickSuggestPacing.js';
import { preferencesOf } from '../lib/lsp/editing/preferences.js';
import { EditingRegistry } from '../lib/lsp/editing/registry.js';
import { hierarchyActionsFor } from './hierarchyActions.js';
import { navigationPaletteActionsFor } from './navigationPaletteActions.js';
import { LeaseHints } from '../lib/lsp/leaseHint.js';
import { createMonacoFeatureBinder } from '../lib/lsp/providers/bind.js';
import { whenPageDraws } from '../lib/monaco/pageDrawing.js';
import type { MonacoApi } from '../lib/lsp/providers/host.js';
import { LspConnectionRegistry } from '../lib/lsp/registry.js';
import { lspSocketUrl, openBrowserSocket, pageSocketUrl } from '../lib/lsp/socket.js';
import { workspaceRelativePath } from '../lib/lsp/uris.js';
import { setupMonaco } from '../lib/workspace/monacoSetup.js';
import { WorkerGate } from '../lib/monaco/typescriptWorkerGate.js';
import type { OpenTarget } from '../lib/workspace/navigation.js';
import { SessionWorkspace, type Position } from '../lib/workspace/sessionWorkspace.js';
import { WorkspaceIdentityStore } from '../lib/workspace/workspaceIdentity.js';
import { sessionHash } from '../app/route.js';
import { requestFailureText } from '../i18n/requestFailureText.js';
import { exposeTestHooks, testBackgroundDetachMs, testMessageToastMs } from './testHooks.js';
import { monacoThemeFor } from '../app/theme.js';
import { themeSwitcher } from '../lib/monaco/themeSwitch.js';
import { ThemeStore } from '../app/themeStore.js';
import { ActiveEditorStore } from '../app/activeEditor.js';
import { WorkbenchStore } from '../app/workbench.js';
import { OutlineFeeds } from '../lib/lsp/editing/outlineFeeds.js';
import { SessionFileIndexes } from '../lib/workspace/fileIndex.js';
import { formatOnSaveFor } from './formatBeforeSave.js';
import { BACKGROUND_DETACH_MS, SessionScope, SessionScopes } from './sessionScope.js';
import { guardUnsavedOnLeave } from './unsavedGuard.js';
import { MESSAGE_TOAST_MS, ServerMessages } from '../lib/lsp/serverMessages.js';
import { createServerWindow } from '../lib/lsp/serverWindow.js';
import { broadcastSettingsChannel, SettingsStore } from './settingsStore.js';
import { followLive, SessionLive, SessionLives, type HeldLive } from './sessionLive.js';

/**
 * What React components get from the ServicesProvider: the window's long-lived objects. Editors of
 * this window share them; a component reads them with `useServices()`, and a unit test hands in
 * fakes (app/services/testing.ts).
 */
export interface WindowServices extends Disposable {
  api: KandevApi;
  /** The page's sign-in: signed out, every socket stops and the page says how to sign in again. */
  access: AccessWatch;
  settings: SettingsStore;
  leaseHints: LeaseHints;
  /** Outline, workspace symbols and format-on-save sources of every connection in this window. */
  editing: EditingRegistry;
  editingNotices: EditingNotices;
  /** Toasts of what servers say (showMessage, showMessageRequest, external links of showDocument). */
  serverMessages: ServerMessages;
  /** Loads Monaco once and wires it (guards, opener, theme; test hooks in the test build). */
  loadMonaco(): Promise<MonacoApi>;
  /** Session scopes (workspace + connections); `monaco` is needed to create one. */
  sessions: SessionScopesOf;
  /** A Files panel action on a session's workspace (all or nothing; servers take part, docs/editing.md). */
  runFileAction(sessionId: string, action: FileAction): Promise<ApplyEditResult>;
  /** The live workspace of a session (events stream, git state), shared by its views; dispose to let go. */
  live: { acquire(sessionId: string): HeldLive };
  /** Problems counts and the dialogs the keyboard opens from anywhere. */
  workbench: WorkbenchStore;
  /** The Monaco editor that is the active panel (status bar, outline, breadcrumbs follow it). */
  activeEditor: ActiveEditorStore;
  /** The theme preference, the OS setting, and <html data-theme>. */
  theme: ThemeStore;
  /** Opens once a built-in TypeScript feature is needed; Monaco's TypeScript worker waits for it. */
  typescriptWorker: WorkerGate;
  /** One outline feed per (session, file), shared by the views that show it. */
  outlines: OutlineFeeds;
  /** One walk of each session's workspace for quick open. */
  fileIndexes: SessionFileIndexes;
}

/** The window's session scopes, created with the loaded Monaco. */
export interface SessionScopesOf {
  acquire(sessionId: string, monaco: MonacoApi): SessionScope;
  get(sessionId: string): SessionScope | undefined;
  leave(sessionId: string): void;
}

function safeSessionStorage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

/** The window's services as the app runs them: the real API, sockets, Monaco and sessionStorage. */
export function createWindowServices(): WindowServices {
  const store = new DisposableStore();
  // Any 401 ends the page's sign-in; the watch asks GET /api/access before sockets reconnect.
  const accessWatch: AccessWatch = store.add(new AccessWatch(() => api.checkAccess()));
  const api: KandevApi = createKandevApi(undefined, () => accessWatch.refused());
  const settingsChannel = broadcastSettingsChannel();
  if (settingsChannel) store.add(settingsChannel);
  const settings = new SettingsStore(api, settingsChannel);
  const lspRegistry = store.add(new LspConnectionRegistry());
  const suppression = new BuiltinSuppression();
  const identities = new WorkspaceIdentityStore();
  const leaseHints = new LeaseHints(safeSessionStorage());
  const editing = new EditingRegistry();
  const editingNotices = new EditingNotices();
  // Browser tests keep plain messages on screen while they check them; a constant at build time drops this elsewhere.
  const serverMessages = store.add(new ServerMessages(systemClock, (import.meta.env.KANDEV_TEST_HOOKS ? testMessageToastMs() : undefined) ?? MESSAGE_TOAST_MS));
  const theme = new ThemeStore();
  const typescriptWorker = new WorkerGate();
  const editingText = (key: string, params?: Record<string, unknown>) => i18next.t(key, { ns: 'editing', ...params });
  const lives = store.add(
    new SessionLives(
      (sessionId) =>
        new SessionLive({
          url: pageSocketUrl(window.location, sessionEventsPath(sessionId)),
          openSocket: openBrowserSocket,
          access: accessWatch,
          readHead: (path) => api.readHeadFile(sessionId, path),
        }),
    ),
  );
  let scopes: SessionScopes | undefined;
  const scopesFor = (monaco: MonacoApi): SessionScopes => {
    if (!scopes) {
      const created = store.add(new SessionScopes((sessionId) => createScope(sessionId, monaco)));
      scopes = created;
      // A hidden page (another browser tab, a minimized window) counts as off screen for its sessions.
      if (typeof document !== 'undefined') {
        const sync = () => created.setPageVisible(document.visibilityState !== 'hidden');
        sync();
        document.addEventListener('visibilitychange', sync);
        store.add({ dispose: () => document.removeEventListener('visibilitychange', sync) });
      }
      if (typeof window !== 'undefined') store.add(guardUnsavedOnLeave(() => created.hasUnsavedChanges()));
    }
    return scopes;
  };

  let pacing: QuickSuggestPacing | undefined;
  const pacingFor = (monaco: MonacoApi): QuickSuggestPacing => (pacing ??= store.add(new QuickSuggestPacing(monaco.editor)));

  const createConnection = (scope: SessionScope, language: LanguageId, monaco: MonacoApi): LspConnection =>
    new LspConnection({
      sessionId: scope.sessionId,
      language,
      openSocket: openBrowserSocket,
      socketUrl: (sid, lang, hint) => lspSocketUrl(window.location, sid, lang, hint),
      leaseHints,
      documents: scope.workspace.documentSource(language),
      bindFeatures: createMonacoFeatureBinder({
        monaco,
        suppression,
        // A connection only ever serves its own session's models.
        acquireModel: (_sid, path) => scope.workspace.acquireModel(path),
        editing,
        preferences: { get: (lang) => preferencesOf(settings.get(), lang), onDidChange: settings.onDidChangeEditorFeatures },
        quickSuggest: pacingFor(monaco),
        whenDrawing: (token) => whenPageDraws(token),
        text: editingText,
        notify: (message) => editingNotices.show(message),
        // Rename tells a failure in its own box, in the words of the toast for any other request.
        failureText: (failure, lang) => requestFailureText(failure, lang, i18next.t, isLocale(i18next.language) ? i18next.language : 'en'),
        applyWorkspaceEdit: (_sid, workspaceUri, edit, expect) =>
          applyWorkspaceEdit(edit, (uri) => workspaceRelativePath(workspaceUri, uri), scope.workspace.editTargets(), editingText, expect),
      }),
      onWorkspaceIdentity: (sid, identity) => identities.set(sid, identity),
      clientInfo: { name: 'Kandev' },
      locale: () => serverLocale(i18next.language),
      // Refused for capacity: this window's sessions off screen let go of their servers first.
      freeCapacity: () => scopes?.detachOffScreen(),
      access: accessWatch,
      // A completion, hover or jump the person asked for that got no answer: a toast says why.
      requestFailed: (failure) => serverMessages.failed({ sessionId: scope.sessionId, language }, failure),
      serverWindow: createServerWindow(
        { sessionId: scope.sessionId, language },
        {
          messages: serverMessages,
          openFile: async (path, position) => {
            if (scope.isDisposed) return false;
            const opening = scope.workspace.open(path, position);
            const hash = sessionHash(scope.sessionId);
            if (!window.location.hash.startsWith(hash)) window.location.hash = hash;
            await opening;
            return scope.workspace.getSnapshot().tabs.some((tab) => tab.path === path);
          },
          openExternal: (uri) => void window.open(uri, '_blank', 'noopener,noreferrer'),
        },
      ),
    });

  const createScope = (sessionId: string, monaco: MonacoApi): SessionScope => {
    const workspace = new SessionWorkspace(sessionId, api, monaco, formatOnSaveFor(sessionId, settings, editing));
    // The editor follows the disk for as long as the session's scope lives (on screen or not).
    const held = lives.acquire(sessionId);
    const following = followLive(held.live, workspace);
    const release = { dispose: () => (following.dispose(), held.dispose()) };
    return new SessionScope(
      sessionId,
      workspace,
      lspRegistry,
      (scope, language) => createConnection(scope, language, monaco),
      {
        // Browser tests shorten the background delay; a constant at build time drops this elsewhere.
        backgroundDetachMs: () => (import.meta.env.KANDEV_TEST_HOOKS ? testBackgroundDetachMs() : undefined) ?? BACKGROUND_DETACH_MS,
      },
      release,
    );
  };

  /** Navigation from Monaco (definition, references, built-in results): a tab of the target's session. */
  const navigate = (target: OpenTarget, position: Position | undefined): void => {
    const workspace = scopes?.get(target.sessionId)?.workspace;
    if (!workspace) return;
    void workspace.open(target.path, position);
    const hash = sessionHash(target.sessionId);
    if (!window.location.hash.startsWith(hash)) window.location.hash = hash;
  };

  let monacoPromise: Promise<MonacoApi> | undefined;
  const loadMonaco = (): Promise<MonacoApi> => {
    monacoPromise ??= import('../lib/monaco/monaco.js').then(({ monaco, setMonacoWorkers }) => {
      // Its icon font now, while signed in: fetched at the first icon, it could be refused once signed out.
      void preloadCodicons();
      // Work Monaco cancels itself is not an error of the page (monacoCancellations.ts).
      if (typeof window !== 'undefined') store.add(ignoreMonacoCancellations());
      setMonacoWorkers(typescriptWorker);
      for (const d of setupMonaco(monaco, { suppression, identities, navigate, onBuiltinUse: () => typescriptWorker.open('builtin provider') })) store.add(d);
      // A constant at build time: the production bundle drops this branch and the hooks module.
      if (import.meta.env.KANDEV_TEST_HOOKS) exposeTestHooks(monaco);
      store.add(hierarchyActionsFor(monaco, editing, editingText));
      store.add(navigationPaletteActionsFor(monaco, editingText));
      // The page's first suggestion list, drawn once off screen while the page is idle (suggestWarmup.ts).
      store.add(warmSuggestWhenIdle(monaco));
      // Monaco's theme follows the app's (System follows the OS, live).
      // Widgets drawn in the old theme close on a switch (themeSwitch.ts).
      const applyTheme = themeSwitcher(monaco);
      applyTheme(monacoThemeFor(theme.get().resolved));
      store.add(theme.onDidChange(() => applyTheme(monacoThemeFor(theme.get().resolved))));
      return monaco;
    });
    return monacoPromise;
  };

  return {
    api,
    access: accessWatch,
    settings,
    leaseHints,
    editing,
    editingNotices,
    serverMessages,
    loadMonaco,
    runFileAction: (sessionId, action) => {
      const workspace = scopes?.get(sessionId)?.workspace;
      if (!workspace) return Promise.resolve({ applied: false, failureReason: editingText('apply.ended') });
      return runFileActionOn(action, { sessionId, workspace, identity: identities.get(sessionId), editing, text: editingText });
    },
    live: { acquire: (sessionId) => lives.acquire(sessionId) },
    workbench: new WorkbenchStore(),
    activeEditor: new ActiveEditorStore(),
    theme,
    typescriptWorker,
    outlines: new OutlineFeeds(editing),
    fileIndexes: new SessionFileIndexes(),
    sessions: {
      acquire: (sessionId, monaco) => scopesFor(monaco).acquire(sessionId),
      get: (sessionId) => scopes?.get(sessionId),
      leave: (sessionId) => scopes?.leave(sessionId),
    },
    dispose: () => store.dispose(),
  };
}
