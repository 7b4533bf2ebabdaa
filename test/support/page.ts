import type { Page } from 'playwright-core';

/** Helpers that drive the session view through its test hooks (data-testid attributes). */
export async function openSession(page: Page, url: string, sessionId: string): Promise<void> {
  await page.goto(`${url}/#/sessions/${sessionId}`);
  await page.locator(`[data-testid="session-view"][data-session-id="${sessionId}"]`).waitFor();
}

/** Opens a file from the Files tree, expanding its folders one by one as a person would. */
export async function openFile(page: Page, path: string): Promise<void> {
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i++) {
    const dir = parts.slice(0, i).join('/');
    const node = page.locator(`[data-testid="tree-node"][data-path="${dir}"]`);
    if ((await node.getAttribute('aria-expanded')) !== 'true') await node.click();
  }
  await page.locator(`[data-testid="tree-node"][data-path="${path}"]`).click();
  await page.locator(`[data-testid="editor"][data-path="${path}"]`).waitFor();
}

/** The LSP status control of the active editor (or of one language, when given). */
export function lspStatus(page: Page, language?: string) {
  return page.locator(language ? `[data-testid="lsp-status"][data-language="${language}"]` : '[data-testid="lsp-status"]').first();
}

export async function waitForLspState(page: Page, language: string, state: string, timeout = 90_000): Promise<void> {
  await page.locator(`[data-testid="lsp-status"][data-language="${language}"][data-state="${state}"]`).waitFor({ timeout });
}

/** Puts the caret of the focused editor on the first occurrence of `text` (plus `offset` chars). */
export async function placeCaret(page: Page, text: string, offset = 0): Promise<void> {
  await page.evaluate(({ text, offset }) => {
    const monaco = (window as any).__kandev.monaco;
    const editor = monaco.editor.getEditors().find((e: any) => e.hasTextFocus() || e.getModel()) ;
    const model = editor.getModel();
    const match = model.findMatches(text, false, false, true, null, false)[0];
    if (!match) throw new Error(`text not found in the editor: ${text}`);
    const start = match.range.getStartPosition();
    editor.setPosition({ lineNumber: start.lineNumber, column: start.column + offset });
    editor.focus();
  }, { text, offset });
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
      if (h.scrollWidth > h.clientWidth + 1) out.push(`${h.tagName.toLowerCase()}${h.dataset.testid ? `[${h.dataset.testid}]` : ''} ${h.scrollWidth}>${h.clientWidth}`);
    }
    return out;
  }, selector);
}

/** Whether the document itself scrolls sideways (it never should, on any layout). */
export async function documentOverflowsHorizontally(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1 || document.body.scrollWidth > document.documentElement.clientWidth + 1);
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
}

/**
 * Routes the page's /lsp WebSockets through Playwright to the real backend, unchanged, recording
 * what the backend closed them with: the witness that the UI shows catalog copy for a code and
 * never the close reason. Call before navigating.
 */
export async function witnessLspSockets(page: Page): Promise<LspSocketWitness> {
  const witness: LspSocketWitness = { opened: [], closes: [], sent: [] };
  await page.routeWebSocket(/\/lsp\//, (ws) => {
    witness.opened.push(ws.url());
    const server = ws.connectToServer();
    ws.onMessage((message) => {
      witness.sent.push(String(message));
      server.send(message);
    });
    server.onMessage((message) => ws.send(message));
    server.onClose((code, reason) => {
      witness.closes.push({ code, reason });
      ws.close({ code, reason });
    });
    ws.onClose((code, reason) => server.close({ code, reason }));
  });
  return witness;
}

/** Replaces the page's /lsp WebSockets with one that closes at once with `code` and `reason`. */
export async function closeLspSocketsWith(page: Page, code: number, reason: string): Promise<void> {
  await page.routeWebSocket(/\/lsp\//, (ws) => ws.close({ code, reason }));
}
