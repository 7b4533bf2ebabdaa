import { languageForPath, mergeSettings, type LanguageId, type UserSettings } from '@kandev/protocol';
import { createKandevApi } from '../api/kandevApi.js';
import i18next from 'i18next';
import { BuiltinSuppression } from '../lib/lsp/builtins.js';
import { LspConnection } from '../lib/lsp/connection.js';
import { LeaseHints } from '../lib/lsp/leaseHint.js';
import { Emitter } from '@kandev/kit';
import { applyWorkspaceEdit } from '../lib/lsp/edits/apply.js';
import { formatBeforeSave } from '../lib/lsp/editing/formatOnSave.js';
import { EditingNotices } from '../lib/lsp/editing/notices.js';
import { preferencesOf } from '../lib/lsp/editing/preferences.js';
import { EditingRegistry } from '../lib/lsp/editing/registry.js';
import { createMonacoFeatureBinder } from '../lib/lsp/providers/bind.js';
import type { MonacoApi } from '../lib/lsp/providers/host.js';
import { LspConnectionRegistry } from '../lib/lsp/registry.js';
import { lspSocketUrl, openBrowserSocket } from '../lib/lsp/socket.js';
import { workspaceRelativePath } from '../lib/lsp/uris.js';
import { setupMonaco } from '../lib/monaco/setup.js';
import { typescriptWorkerGate } from '../lib/monaco/typescriptWorkerGate.js';
import type { OpenTarget } from '../lib/workspace/navigation.js';
import { SessionWorkspace, type Position } from '../lib/workspace/sessionWorkspace.js';
import { WorkspaceIdentityStore } from '../lib/workspace/workspaceIdentity.js';
import { serverLocale } from '../i18n/i18n.js';
import { sessionHash } from './route.js';
import { exposeTestHooks } from './testHooks.js';
import { monacoThemeFor } from './theme.js';
import { themeStore } from './themeStore.js';

/**
 * The window's long-lived objects: one API client, one LSP connection registry, one built-in
 * suppression set, session workspaces, and (once loaded) Monaco. Editors of this window share
 * them; React components only look them up.
 */
export const api = createKandevApi();
export const lspRegistry = new LspConnectionRegistry();
export const suppression = new BuiltinSuppression();
export const identities = new WorkspaceIdentityStore();
export const leaseHints = new LeaseHints(safeSessionStorage());
/** Outline, workspace symbols and format-on-save sources of every connection in this window. */
export const editing = new EditingRegistry();
export const editingNotices = new EditingNotices();
const preferencesChanged = new Emitter<void>();
const editingText = (key: string, params?: Record<string, unknown>) => i18next.t(key, { ns: 'editing', ...params });
const workspaces = new Map<string, SessionWorkspace>();

function safeSessionStorage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined;
  }
}

let monacoPromise: Promise<MonacoApi> | undefined;

/** Loads Monaco once and wires it (guards, opener, test hooks). */
export function loadMonaco(): Promise<MonacoApi> {
  monacoPromise ??= import('../lib/monaco/monaco.js').then(({ monaco }) => {
    setupMonaco(monaco, { suppression, identities, navigate, onBuiltinUse: () => typescriptWorkerGate.open('builtin provider') });
    // A constant at build time: the production bundle drops this branch and the hooks module.
    if (import.meta.env.KANDEV_TEST_HOOKS) exposeTestHooks(monaco);
    // Monaco's theme follows the app's (System follows the OS, live).
    monaco.editor.setTheme(monacoThemeFor(themeStore.get().resolved));
    themeStore.onDidChange(() => monaco.editor.setTheme(monacoThemeFor(themeStore.get().resolved)));
    return monaco;
  });
  return monacoPromise;
}

export function sessionWorkspace(sessionId: string, monaco: MonacoApi): SessionWorkspace {
  let workspace = workspaces.get(sessionId);
  if (!workspace) {
    workspace = new SessionWorkspace(sessionId, api, monaco, (path, model) => {
      const language = languageForPath(path);
      if (!language) return Promise.resolve();
      return formatBeforeSave(path, {
        getVersionId: () => model.getVersionId(),
        getOptions: () => {
          const o = model.getOptions();
          return { tabSize: o.tabSize, insertSpaces: o.insertSpaces };
        },
        applyEdits: (edits) => {
          model.pushStackElement();
          model.pushEditOperations([], edits.map((e) => ({ range: { startLineNumber: e.range.start.line + 1, startColumn: e.range.start.character + 1, endLineNumber: e.range.end.line + 1, endColumn: e.range.end.character + 1 }, text: e.newText })), () => null);
          model.pushStackElement();
        },
      }, preferencesOf(settings, language), editing.formatters.get(sessionId, language)).then(() => undefined);
    });
    workspaces.set(sessionId, workspace);
  }
  return workspace;
}

export function lspConnection(sessionId: string, language: LanguageId, monaco: MonacoApi): LspConnection {
  return lspRegistry.getOrCreate(sessionId, language, () => {
    const workspace = sessionWorkspace(sessionId, monaco);
    return new LspConnection({
      sessionId,
      language,
      openSocket: openBrowserSocket,
      socketUrl: (sid, lang, hint) => lspSocketUrl(window.location, sid, lang, hint),
      leaseHints,
      documents: workspace.documentSource(language),
      bindFeatures: createMonacoFeatureBinder({
        monaco,
        suppression,
        acquireModel: (sid, path) => sessionWorkspace(sid, monaco).acquireModel(path),
        editing,
        preferences: { get: (lang) => preferencesOf(settings, lang), onDidChange: preferencesChanged.event },
        text: editingText,
        notify: (message) => editingNotices.show(message),
        applyWorkspaceEdit: (sid, workspaceUri, edit, expect) =>
          applyWorkspaceEdit(edit, (uri) => workspaceRelativePath(workspaceUri, uri), sessionWorkspace(sid, monaco).editTargets(), editingText, expect),
      }),
      onWorkspaceIdentity: (sid, identity) => identities.set(sid, identity),
      clientInfo: { name: 'Kandev' },
      locale: () => serverLocale(i18next.language),
    });
  });
}

/** Navigation from Monaco (definition, references, built-in results) or from search hits. */
function navigate(target: OpenTarget, position: Position | undefined): void {
  const workspace = workspaces.get(target.sessionId);
  if (!workspace) return;
  void workspace.open(target.path, position);
  const hash = sessionHash(target.sessionId);
  if (!window.location.hash.startsWith(hash)) window.location.hash = hash;
}

let settings: UserSettings | undefined;
const settingsChanged = new Emitter<void>();

function publishSettings(value: UserSettings): void {
  const previous = settings;
  settings = value;
  if (JSON.stringify(previous?.lsp_editor_features) !== JSON.stringify(value.lsp_editor_features)) preferencesChanged.fire();
  settingsChanged.fire();
}

/** A PUT /api/settings body: any subset of fields; a language's config set to null is deleted. */
export type SettingsPatch = Omit<Partial<UserSettings>, 'lsp_server_configs'> & {
  lsp_server_configs?: Partial<Record<LanguageId, Record<string, unknown> | null>>;
};

/** The user's settings, fetched once per window (defaults when the backend has none). */
export const settingsStore = {
  get: (): UserSettings | undefined => settings,
  onDidChange: settingsChanged.event,
  load(): Promise<UserSettings> {
    return api.getSettings().then((value) => {
      publishSettings(value);
      return value;
    });
  },
  /**
   * PUT /api/settings with a partial update. The change shows at once; the backend's answer (the
   * whole stored object) replaces it, and a refused or failed save restores what was there.
   */
  async update(patch: SettingsPatch): Promise<UserSettings> {
    const before = settings;
    // Shown at once, merged exactly as the backend merges (per-language configs, null deletes).
    const optimistic = before ? mergeSettings(before, patch) : undefined;
    if (optimistic?.ok) publishSettings(optimistic.settings);
    try {
      const saved = await api.updateSettings(patch);
      publishSettings(saved);
      return saved;
    } catch (err) {
      if (before) publishSettings(before);
      throw err;
    }
  },
};
