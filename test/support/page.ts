import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileUri } from '@kandev/protocol';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { ensureBuilt, repoRoot, webTestDist } from './build.js';
import { installFakeServer, readLog, writeScript, type LoggedMessage } from './fakeServer.js';
import { startStack, taskPath, type RunningStack } from './stack.js';
import { writeFiles } from './files.js';

/** Helpers that drive the session view through its test hooks (data-testid attributes). */
export async function openSession(page: Page, url: string, sessionId: string): Promise<void> {
  await page.goto(`${url}/#/sessions/${sessionId}`);
  await page.locator(`[data-testid="session-view"][data-session-id="${sessionId}"]`).waitFor();
}

/** Opens a file from the Files tree, expanding its folders one by one as a person would. */
export async function openFile(page: Page, path: string): Promise<void> {
  await clickTreeFile(page, path);
  await page.locator(`[data-testid="editor"][data-path="${path}"]`).waitFor();
}

/** Expands the folders above `path` in the Files tree and clicks its row (for a file no editor opens for). */
export async function clickTreeFile(page: Page, path: string): Promise<void> {
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i++) {
    const dir = parts.slice(0, i).join('/');
    const node = page.locator(`[data-testid="tree-node"][data-path="${dir}"]`);
    await treeRow(page, node, dir);
    if ((await node.getAttribute('aria-expanded')) !== 'true') await node.click();
  }
  const row = page.locator(`[data-testid="tree-node"][data-path="${path}"]`);
  await treeRow(page, row, path);
  await row.click();
}

/** Waits for a row of the Files tree; a listing that failed fails at once, saying so, instead of timing out. */
async function treeRow(page: Page, row: Locator, path: string): Promise<void> {
  const failed = page.locator('.tree-info-error');
  await row.or(failed).first().waitFor();
  if (!(await row.isVisible()) && (await failed.count()) > 0)
    throw new Error(`the Files tree failed to list a folder above ${path}: ${await failed.first().innerText()}`);
}

/** The LSP status control of the active editor (or of one language, when given). */
export function lspStatus(page: Page, language?: string) {
  return page.locator(language ? `[data-testid="lsp-status"][data-language="${language}"]` : '[data-testid="lsp-status"]').first();
}

/** On a timeout, says what the language's status controls showed instead (a flake in CI is then read, not guessed). */
export async function waitForLspState(page: Page, language: string, state: string, timeout = 90_000): Promise<void> {
  const controls = `[data-testid="lsp-status"][data-language="${language}"]`;
  try {
    await page.locator(`${controls}[data-state="${state}"]`).waitFor({ timeout });
  } catch (err) {
    const shown = await page
      .locator(controls)
      .evaluateAll((elements) =>
        elements.map((e) => `${e.getAttribute('data-state')} ("${(e.textContent ?? '').trim()}", title "${e.getAttribute('title') ?? ''}")`),
      )
      .catch(() => [] as string[]);
    throw new Error(`${language} never showed state ${state} within ${timeout} ms; its status controls show: ${shown.join('; ') || 'none'}`, { cause: err });
  }
}

/** Puts the caret of the focused editor on the first occurrence of `text` (plus `offset` chars). */
export async function placeCaret(page: Page, text: string, offset = 0): Promise<void> {
  await page.evaluate(
    ({ text, offset }) => {
      const monaco = (window as any).__kandev.monaco;
      const editor = monaco.editor.getEditors().find((e: any) => e.hasTextFocus() || e.getModel());
      const model = editor.getModel();
      const match = model.findMatches(text, false, false, true, null, false)[0];
      if (!match) throw new Error(`text not found in the editor: ${text}`);
      const start = match.range.getStartPosition();
      editor.setPosition({ lineNumber: start.lineNumber, column: start.column + offset });
      editor.focus();
    },
    { text, offset },
  );
}

/** Markers of the session's model at `path`, as the user sees them as squiggles. */
export async function markers(page: Page, sessionId: string, path: string): Promise<Array<{ message: string; severity: number; owner: string }>> {
  return page.evaluate(({ sessionId, path }) => (window as any).__kandev.getModelMarkers(sessionId, path), { sessionId, path });
}

// ---- LSP status surfaces (toolbar control, popover / drawer, status bar) ----

/** The open status popover or drawer (rendered in document.body). */
export function lspPanel(page: Page) {
  return page.locator('[data-testid="lsp-status-panel"]');
}

/** Opens the details of the toolbar control (click on fine pointers, tap on touch) and returns the panel. */
export async function openLspPanel(page: Page, language: string, how: 'click' | 'tap' = 'click') {
  const trigger = lspStatus(page, language).locator('[data-testid="lsp-status-trigger"]');
  if ((await trigger.getAttribute('aria-expanded')) !== 'true') {
    if (how === 'tap') await trigger.tap();
    else await trigger.click();
  }
  const panel = lspPanel(page);
  await panel.waitFor();
  return panel;
}

/**
 * Waits until the server of `language` has finished the background work it reported, as its
 * status details show it (the last work item finished, none running), then closes them. For
 * typescript-language-server that work is tsserver loading the project ("Initializing JS/TS
 * language features"): until it ends, implementations and references come from its syntax
 * server, which knows only the open files.
 */
export async function waitForServerWorkFinished(page: Page, language: string, timeout = 90_000): Promise<void> {
  const panel = await openLspPanel(page, language);
  await panel.locator('[data-testid="lsp-progress"][data-kind="finished"]').waitFor({ timeout });
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'detached' });
}

/**
 * Waits until the status details of `language` list `feature` (a ServerFeature) among what the
 * attached server offers, then closes them: a capability a server registers after `initialized`
 * arrives after the connection shows ready, and the editor's actions for it appear only then.
 */
export async function waitForOffered(page: Page, language: string, feature: string, timeout = 30_000): Promise<void> {
  const panel = await openLspPanel(page, language);
  await panel.locator(`[data-testid="lsp-offered"][data-features~="${feature}"]`).waitFor({ timeout });
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'detached' });
}

export function statusBarLspItem(page: Page) {
  return page.locator('[data-testid="lsp-statusbar-item"]');
}

/**
 * Records every data-state an LSP status surface takes, from page load on (call before goto).
 * Read it back with lspStatesSeen: the witness that, say, no "installing" state ever showed.
 */
export async function recordLspStates(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as any).__lspStates = seen;
    const note = (el: Element) => {
      const state = el.getAttribute('data-state');
      const language = el.getAttribute('data-language');
      if (state && seen[seen.length - 1] !== `${language}:${state}`) seen.push(`${language}:${state}`);
    };
    new MutationObserver((records) => {
      for (const r of records) {
        const nodes = r.type === 'attributes' ? [r.target as Element] : [...r.addedNodes].filter((n): n is Element => n instanceof Element);
        for (const n of nodes) {
          for (const el of [n, ...n.querySelectorAll('[data-testid="lsp-status"],[data-testid="lsp-statusbar-item"]')]) {
            if (el.matches('[data-testid="lsp-status"],[data-testid="lsp-statusbar-item"]')) note(el);
          }
        }
      }
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
  });
}

export async function lspStatesSeen(page: Page): Promise<string[]> {
  return page.evaluate(() => [...((window as any).__lspStates ?? [])]);
}

/**
 * Elements inside `selector` (and the element itself) whose content is wider than their box:
 * clipped or horizontally scrolling text. Empty means everything wraps (S49).
 */
export async function horizontalOverflow(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const root = document.querySelector(sel);
    if (!root) throw new Error(`no element for ${sel}`);
    const out: string[] = [];
    for (const el of [root, ...root.querySelectorAll('*')]) {
      const h = el as HTMLElement;
      if (h.clientWidth === 0 && h.scrollWidth === 0) continue;
      const style = getComputedStyle(h);
      if (style.display === 'inline' || h.getClientRects().length === 0) continue;
      if (h.scrollWidth > h.clientWidth + 1)
        out.push(`${h.tagName.toLowerCase()}${h.dataset.testid ? `[${h.dataset.testid}]` : ''} ${h.scrollWidth}>${h.clientWidth}`);
    }
    return out;
  }, selector);
}

/** Whether the document itself scrolls sideways (it never should, on any layout). */
export async function documentOverflowsHorizontally(page: Page): Promise<boolean> {
  return page.evaluate(
    () =>
      document.documentElement.scrollWidth > document.documentElement.clientWidth + 1 || document.body.scrollWidth > document.documentElement.clientWidth + 1,
  );
}

/** Opens a session with the UI locale pinned (`?locale=`), e.g. 'pt-pt' or 'zh-cn'. */
export async function openSessionInLocale(page: Page, url: string, sessionId: string, locale: string): Promise<void> {
  await page.goto(`${url}/?locale=${encodeURIComponent(locale)}#/sessions/${sessionId}`);
  await page.locator(`[data-testid="session-view"][data-session-id="${sessionId}"]`).waitFor();
}

export interface LspSocketWitness {
  /** URLs of the /lsp WebSockets the page opened, in order. */
  opened: string[];
  /** Close codes and reasons the backend sent (forwarded to the page unchanged). */
  closes: Array<{ code: number | undefined; reason: string | undefined }>;
  /** Text frames the page sent (JSON-RPC and control frames). */
  sent: string[];
  /** Text frames the backend sent, with the URL of the socket that carried each. */
  received: Array<{ url: string; frame: string }>;
}

/**
 * Routes the page's /lsp WebSockets through Playwright to the real backend, unchanged, recording
 * what the backend closed them with: the witness that the UI shows catalog copy for a code and
 * never the close reason. Call before navigating.
 */
export async function witnessLspSockets(page: Page): Promise<LspSocketWitness> {
  const witness: LspSocketWitness = { opened: [], closes: [], sent: [], received: [] };
  await page.routeWebSocket(/\/lsp\//, (ws) => {
    witness.opened.push(ws.url());
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      witness.sent.push(String(message));
      server.send(message);
    });
    server.onMessage((message) => {
      witness.received.push({ url: ws.url(), frame: String(message) });
      ws.send(message);
    });
    server.onClose((code, reason) => {
      witness.closes.push({ code, reason });
      void ws.close({ code, reason });
    });
    ws.onClose((code, reason) => void server.close({ code, reason }));
  });
  return witness;
}

/** Replaces the page's /lsp WebSockets with one that closes at once with `code` and `reason`. */
export async function closeLspSocketsWith(page: Page, code: number, reason: string): Promise<void> {
  await page.routeWebSocket(/\/lsp\//, (ws) => ws.close({ code, reason }));
}

/* ----------------------------------------------------------------------------------------------
 * Helpers for the editor-* browser suites: an isolated copy of the built web app, sessions whose
 * language server is the scriptable fake, the fake's log as the witness, and Monaco drivers.
 * -------------------------------------------------------------------------------------------- */

/**
 * A private copy of the web app's test build for one suite (served through KANDEV_WEB_DIR), so a
 * rebuild started by another suite in the same checkout cannot swap the assets under a running test.
 */
export function webDistSnapshot(): string {
  ensureBuilt('web-test');
  const source = join(repoRoot, webTestDist);
  for (let attempt = 0; ; attempt++) {
    const target = mkdtempSync(join(tmpdir(), 'kandev-web-'));
    try {
      cpSync(source, target, { recursive: true });
      const html = readFileSync(join(target, 'index.html'), 'utf8');
      const assets = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+)"/g)].map((m) => m[1] as string);
      if (assets.length > 0 && assets.every((a) => existsSync(join(target, a)))) return target;
    } catch {
      // a build was replacing the folder while we copied: try again
    }
    rmSync(target, { recursive: true, force: true });
    if (attempt >= 20) throw new Error(`${webTestDist} stayed incomplete: is a web build failing?`);
    execFileSync('sleep', ['3']);
  }
}

/** The real stack for an editor suite, serving its own snapshot of the web app (removed on stop). */
export async function startEditorStack(env: Record<string, string> = {}): Promise<RunningStack> {
  const web = webDistSnapshot();
  const stack = await startStack({ KANDEV_WEB_DIR: web, ...env });
  return {
    ...stack,
    async stop() {
      await stack.stop();
      rmSync(web, { recursive: true, force: true });
    },
  };
}

export interface FakeSession {
  taskId: string;
  sessionId: string;
  /** The workspace root on the task host (the common root for several repositories). */
  workspace: string;
  logPath: string;
  /** `file://` URI of a workspace-relative path, spelled canonically as the server must see it. */
  fileUri(path: string): string;
  log(): LoggedMessage[];
}

export interface FakeSessionOptions {
  /** The executable name the fake server is installed as (it goes first on the task PATH). */
  binary: 'kotlin-lsp' | 'typescript-language-server';
  /** The script, or a function of the session's `fileUri` for scripts that answer with locations. */
  script: FakeScript | ((fileUri: (path: string) => string) => FakeScript);
  /** Files to write, relative to the workspace root. */
  files: Record<string, string>;
  /** Repository folders below the workspace root; default: one repository, the root itself. */
  repositories?: string[];
  /** Use this folder as the workspace root (two sessions on one task-host folder, S32). */
  workspace?: string;
  title?: string;
}

/** A task and running session whose server is the fake, with its own script and log. */
export async function startFakeSession(stack: RunningStack, options: FakeSessionOptions): Promise<FakeSession> {
  // Inside the stack's home, so stopping the stack removes it.
  const dir = mkdtempSync(join(stack.home, 'fake-'));
  const workspace = options.workspace ?? join(dir, 'workspace');
  writeFiles(workspace, options.files);
  for (const repo of options.repositories ?? []) mkdirSync(join(workspace, repo), { recursive: true });
  const bin = join(dir, 'bin');
  installFakeServer(bin, options.binary);
  const logPath = join(dir, 'server.jsonl');
  const fileUri = (path: string) => pathToFileUri(join(workspace, path));
  const scriptPath = writeScript(dir, typeof options.script === 'function' ? options.script(fileUri) : options.script);
  const repositories = (options.repositories ?? ['']).map((r) => ({ path: r ? join(workspace, r) : workspace }));
  const task = await stack.api<{ id: string }>('/api/tasks', {
    body: {
      title: options.title ?? 'Fake server task',
      executor: 'local_pc',
      repositories,
      env: { PATH: taskPath(bin), FAKE_LSP_SCRIPT: scriptPath, FAKE_LSP_LOG: logPath },
    },
  });
  const session = await stack.startSession(task.id);
  return {
    taskId: task.id,
    sessionId: session.id,
    workspace,
    logPath,
    fileUri,
    log: () => readLog(logPath),
  };
}

/** PUT /api/settings with a partial update. */
export function putSettings(stack: RunningStack, patch: Record<string, unknown>): Promise<unknown> {
  return stack.api('/api/settings', { method: 'PUT', body: patch });
}

/** The messages of one method the server received, in order. */
export function received(session: Pick<FakeSession, 'log'>, method: string): LoggedMessage['message'][] {
  return session
    .log()
    .map((l) => l.message)
    .filter((m) => m.method === method);
}

/** Applies LSP content changes (incremental ranges or whole text) to a text. */
export function applyContentChanges(
  text: string,
  changes: Array<{ range?: { start: { line: number; character: number }; end: { line: number; character: number } }; text: string }>,
): string {
  let out = text;
  for (const change of changes) {
    if (!change.range) {
      out = change.text;
      continue;
    }
    const offset = (p: { line: number; character: number }) => {
      let index = 0;
      for (let line = 0; line < p.line; line++) {
        const next = out.indexOf('\n', index);
        if (next < 0) return out.length;
        index = next + 1;
      }
      return Math.min(index + p.character, out.length);
    };
    out = out.slice(0, offset(change.range.start)) + change.text + out.slice(offset(change.range.end));
  }
  return out;
}

/**
 * The document as the server holds it after the first `upTo` log entries (all by default):
 * its last didOpen plus every didChange after it, applied in order.
 */
export function serverDocument(session: Pick<FakeSession, 'log'>, uri: string, upTo?: number): { text: string; version: number } | undefined {
  let doc: { text: string; version: number } | undefined;
  for (const { message } of session.log().slice(0, upTo)) {
    const td = message.params?.textDocument;
    if (td?.uri !== uri) continue;
    if (message.method === 'textDocument/didOpen') doc = { text: td.text, version: td.version };
    else if (message.method === 'textDocument/didChange' && doc)
      doc = { text: applyContentChanges(doc.text, message.params.contentChanges), version: td.version };
    else if (message.method === 'textDocument/didClose') doc = undefined;
  }
  return doc;
}

/** Runs `fn(editor, monaco)` in the page against the editor showing a model (the only one by default). */
export async function withEditor<T, A = undefined>(page: Page, fn: (editor: any, monaco: any, arg: A) => T, arg?: A): Promise<T> {
  return page.evaluate(
    ({ source, arg }) => {
      const monaco = (window as any).__kandev.monaco;
      const editor = monaco.editor.getEditors().find((e: any) => e.getModel());
      if (!editor) throw new Error('no Monaco editor shows a model');
      return (0, eval)(`(${source})`)(editor, monaco, arg);
    },
    { source: fn.toString(), arg },
  ) as Promise<T>;
}

/** The text of the model the editor shows. */
export function editorText(page: Page): Promise<string> {
  return withEditor(page, (editor) => editor.getModel().getValue() as string);
}

/** Puts the caret at a 1-based line and column and focuses the editor. */
export async function setCaret(page: Page, lineNumber: number, column: number): Promise<void> {
  await withEditor(
    page,
    (editor, _m, p: { lineNumber: number; column: number }) => {
      editor.setPosition(p);
      editor.revealPositionInCenter(p);
      editor.focus();
    },
    { lineNumber, column },
  );
}

export function caretPosition(page: Page): Promise<{ lineNumber: number; column: number }> {
  return withEditor(page, (editor) => {
    const p = editor.getPosition();
    return { lineNumber: p.lineNumber as number, column: p.column as number };
  });
}

/**
 * Starts a Monaco editor action (e.g. editor.action.showHover) on the editor, without waiting for
 * it to finish (rename, for one, finishes only when the user answers its input box).
 */
export async function runEditorAction(page: Page, id: string): Promise<void> {
  await withEditor(
    page,
    (editor, _m, action: string) => {
      editor.focus();
      const found = editor.getAction(action);
      // Actions registered as commands (peek definition, ...) run through trigger.
      if (found) void found.run();
      else editor.trigger('kandev-e2e', action, null);
    },
    id,
  );
}

/** The suggest widget's rows as the user sees them (label text first). */
export function suggestRows(page: Page) {
  return page.locator('.editor-widget.suggest-widget.visible .monaco-list-row');
}

/**
 * Moves the suggest widget's focus to the row whose label is `label` (keyboard, as a person would),
 * so Enter or Shift+Enter accepts exactly that item.
 */
export async function focusSuggestion(page: Page, label: string): Promise<void> {
  await suggestRows(page).first().waitFor();
  const focusedLabel = () => page.locator('.editor-widget.suggest-widget.visible .monaco-list-row.focused .label-name').first().innerText();
  for (let i = 0; i < 50; i++) {
    if ((await focusedLabel()).trim() === label) return;
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`no suggestion labelled ${label}`);
}

/** The visible hover widget's rows: one per hover result (one per provider that answered). */
export function hoverRows(page: Page): Promise<string[]> {
  return page.locator('.monaco-hover:not(.hidden) .hover-row:has(.markdown-hover)').allInnerTexts();
}

/** Switches the UI language as Settings does (the test build's hook), staying on the page shown. */
export async function switchLocale(page: Page, locale: string): Promise<void> {
  await page.evaluate((l) => (window as any).__kandev.setLocale(l) as Promise<void>, locale);
}

/** The accessible name of each side's text box in the diff editor `testId` (null where it has none). */
export function diffSideNames(page: Page, testId: string): Promise<{ original: string | null; modified: string | null }> {
  return page.locator(`[data-testid="${testId}"]`).evaluate((diff) => {
    const name = (side: string) => diff.querySelector(`.editor.${side} [role="textbox"]`)?.getAttribute('aria-label') ?? null;
    return { original: name('original'), modified: name('modified') };
  });
}

/** The text of a session model in the window (tab or navigation placeholder); undefined when it has none. */
export function sessionModelText(page: Page, sessionId: string, path: string): Promise<string | undefined> {
  return page.evaluate(
    ({ sid, p }) => {
      const monaco = (window as any).__kandev.monaco;
      return monaco.editor.getModel(monaco.Uri.from({ scheme: 'kandev-session', authority: sid, path: `/${p}` }))?.getValue() as string | undefined;
    },
    { sid: sessionId, p: path },
  );
}

/** Records the JSON-RPC methods the page sends on its sockets from now on (the witness that a server was asked). */
/** The `textDocument/didOpen` URIs the page sent on its sockets, in order. */
export function recordSentDidOpens(page: Page): string[] {
  const uris: string[] = [];
  page.on('websocket', (ws) =>
    ws.on('framesent', (f) => {
      const text = String(f.payload);
      if (!text.includes('"textDocument/didOpen"')) return;
      const uri = (JSON.parse(text) as { params?: { textDocument?: { uri?: string } } }).params?.textDocument?.uri;
      if (uri) uris.push(uri);
    }),
  );
  return uris;
}

export function recordSentMethods(page: Page): string[] {
  const sent: string[] = [];
  page.on('websocket', (ws) =>
    ws.on('framesent', (f) => {
      const method = /"method":"([^"]+)"/.exec(String(f.payload))?.[1];
      if (method) sent.push(method);
    }),
  );
  return sent;
}

/**
 * The JSON-RPC methods the page sent, per language: each /lsp socket carries one language's server
 * (`?language=` in its URL), so "was a pull sent" can be asked of every server, not of any one.
 */
export function sentMethodsByLanguage(page: Page): Map<string, string[]> {
  const sent = new Map<string, string[]>();
  page.on('websocket', (ws) => {
    const language = new URL(ws.url()).searchParams.get('language');
    if (!language) return;
    ws.on('framesent', (f) => {
      const method = /"method":"([^"]+)"/.exec(String(f.payload))?.[1];
      if (method) sent.set(language, [...(sent.get(language) ?? []), method]);
    });
  });
  return sent;
}

/** The documents whose diagnostics a server published over the page's language sockets (even an empty list), as URIs. */
export function publishedDiagnostics(page: Page): Set<string> {
  const published = new Set<string>();
  page.on('websocket', (ws) => {
    if (!new URL(ws.url()).searchParams.get('language')) return;
    ws.on('framereceived', (f) => {
      const text = String(f.payload);
      if (!text.includes('"textDocument/publishDiagnostics"')) return;
      try {
        const message = JSON.parse(text) as { method?: string; params?: { uri?: unknown } };
        if (message.method === 'textDocument/publishDiagnostics' && typeof message.params?.uri === 'string') published.add(message.params.uri);
      } catch {
        // Not JSON: no publication to note.
      }
    });
  });
  return published;
}

/** The Outline as a person reads it, row by row, each as `level:name` (the tree's aria-level). */
export function outlineTree(page: Page): Promise<string[]> {
  return page
    .locator('[data-testid="outline"] [role="treeitem"]')
    .evaluateAll((items) => items.map((item) => `${item.getAttribute('aria-level')}:${item.querySelector('[data-symbol]')?.getAttribute('data-symbol')}`));
}

/**
 * The Problems panel's entries for one file, as a person reads them (message, source, location).
 * The panel draws only the rows in view, so this scrolls it from top to bottom as a person would,
 * reading the file's rows at each stop, and puts the scroll position back.
 */
export async function problemRows(page: Page, path: string): Promise<string[]> {
  const list = page.locator('[data-testid="problems-rows"]');
  if ((await list.count()) === 0) return [];
  return list.evaluate(async (scroller, file) => {
    const frame = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
    const byIndex = new Map<number, string>();
    const before = scroller.scrollTop;
    const step = Math.max(20, Math.floor(scroller.clientHeight / 2));
    for (let top = 0; ; top += step) {
      scroller.scrollTop = top;
      await frame();
      for (const row of scroller.querySelectorAll<HTMLElement>('[data-index]')) {
        const entry = row.querySelector<HTMLElement>('[data-testid="problem-row"]');
        if (entry?.dataset.path === file) byIndex.set(Number(row.dataset.index), entry.innerText);
      }
      if (top + scroller.clientHeight >= scroller.scrollHeight) break;
    }
    scroller.scrollTop = before;
    return [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, text]) => text);
  }, path);
}

/**
 * The file's Problems entries come to match `finding`. Problems is drawn on React's next turn
 * after Monaco's markers change, so it may lag the markers a test has just seen by a frame or a
 * busy main thread's long task (CI once read it empty in between): a short poll, not a long wait.
 */
export async function expectProblemListed(page: Page, path: string, finding: RegExp): Promise<void> {
  await expect.poll(async () => (await problemRows(page, path)).join('\n'), { message: path, timeout: 10_000 }).toMatch(finding);
}

/** The labels the visible suggest widget shows (the rows it renders). */
export function suggestLabels(page: Page): Promise<string[]> {
  return page.locator('.editor-widget.suggest-widget.visible .monaco-list-row .label-name').allInnerTexts();
}
