import type { Page } from 'playwright-core';

/** Helpers for the navigation and hierarchy suites: Monaco's context menu, its command palette, the hierarchy panel. */

/** Opens the editor's context menu at the caret and picks the item labelled `label`. */
export async function pickFromContextMenu(page: Page, label: string): Promise<void> {
  const cursor = page.locator('[data-testid="editor"] .cursor').first();
  const box = await cursor.boundingBox();
  if (!box) throw new Error('no caret on screen');
  await page.mouse.click(box.x + 1, box.y + box.height / 2, { button: 'right' });
  // Monaco draws its menu in a shadow root; Playwright's CSS locators reach into it.
  const item = page.locator('.monaco-menu .action-item', { has: page.locator('.action-label', { hasText: label }) }).first();
  await item.waitFor({ timeout: 15_000 });
  // Monaco's menu ignores a click in its first 100 ms (so the right button's own release picks
  // nothing), a delay no page signal marks the end of: a click that quick is silently dropped.
  // The item is chosen as with the keyboard instead: pointed at (it takes the menu's focus), Enter.
  await item.hover();
  await item.and(page.locator('.focused')).waitFor({ timeout: 15_000 });
  await page.keyboard.press('Enter');
}

/** Runs a command from Monaco's command palette (F1, with the editor focused) by typing part of its label. */
export async function runFromCommandPalette(page: Page, typed: string, label: string): Promise<void> {
  await page.keyboard.press('F1');
  const widget = page.locator('.quick-input-widget');
  await widget.locator('input').waitFor({ timeout: 15_000 });
  await page.keyboard.type(typed);
  const row = widget.locator('.monaco-list-row', { hasText: label }).first();
  try {
    await row.waitFor({ timeout: 15_000 });
  } catch (err) {
    // Say what the palette offered instead.
    throw new Error(
      `"${label}" not in the palette: ${(await widget.locator('.monaco-list-row').allInnerTexts()).join(' | ')} (typed into ${await widget.locator('input').inputValue()})`,
      { cause: err },
    );
  }
  await row.click();
}

export function hierarchyPanel(page: Page) {
  return page.locator('[data-testid="hierarchy-panel"]');
}

/** The hierarchy tree as shown, row by row: `depth:name` for items, `depth:(note)` for notes. */
export function hierarchyRows(page: Page): Promise<string[]> {
  return page.locator('[data-testid="hierarchy-tree"] [role="treeitem"]').evaluateAll((rows) =>
    rows.map((r) => {
      const level = Number(r.getAttribute('aria-level')) - 1;
      const name = r.getAttribute('data-name');
      return name ? `${level}:${name}` : `${level}:(${r.getAttribute('data-note')})`;
    }),
  );
}

/** The hierarchy item row named `name` (the first, depth first). */
export function hierarchyItem(page: Page, name: string) {
  return page.locator(`[data-testid="hierarchy-item"][data-name="${name}"]`).first();
}

/** The rows of Monaco's peek view (files and their results), as text. */
export function peekRows(page: Page): Promise<string[]> {
  return page.locator('.peekview-widget .ref-tree .monaco-list-row').allInnerTexts();
}
