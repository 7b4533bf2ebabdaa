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

export function lspStatus(page: Page, language: string) {
  return page.locator(`[data-testid="lsp-status"][data-language="${language}"]`);
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
