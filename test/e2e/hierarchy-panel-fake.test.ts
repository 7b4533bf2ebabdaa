import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { caretPosition, openFile, openSession, received, setCaret, waitForLspState, waitForOffered, type FakeSession } from '../support/page.js';
import { openFakeEditor } from '../support/fakeEditor.js';
import type { RunningStack } from '../support/stack.js';
import { emulateScheme, expectTheme, screenshot, seriousAxeViolations, settled } from '../support/app.js';
import { hierarchyItem, hierarchyPanel, hierarchyRows, pickFromContextMenu, runFromCommandPalette } from '../support/hierarchy.js';

/**
 * The type hierarchy panel against the fake server installed as `kotlin-lsp`: the clangd here
 * (Debian clangd 14) advertises typeHierarchyProvider for its pre-3.17 extension but answers
 * `textDocument/prepareTypeHierarchy` with "method not found", and gopls, pyright and
 * typescript-language-server do not offer it, so no real server here can be asked. The fake
 * registers it dynamically after `initialized`, as a server may.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const SHAPES = 'src/Shapes.kt';
const CIRCLE = 'src/Circle.kt';
const files = {
  [SHAPES]: ['package demo', '', 'interface Shape : Solid', '', 'class Square : Shape', ''].join('\n'),
  [CIRCLE]: ['package demo', '', '// a round one', 'class Circle : Shape', ''].join('\n'),
  'src/Solid.kt': ['package demo', '', 'interface Solid', ''].join('\n'),
};
const range = (line: number, start: number, end: number) => ({ start: { line, character: start }, end: { line, character: end } });

function script(fileUri: (path: string) => string): FakeScript {
  const item = (name: string, kind: number, path: string, line: number, start: number) => ({
    name,
    kind,
    uri: fileUri(path),
    detail: 'demo',
    range: range(line, 0, start + name.length),
    selectionRange: range(line, start, start + name.length),
    data: { name },
  });
  const shapeSubtypes = { respond: [item('Square', 5, SHAPES, 4, 6), item('Circle', 5, CIRCLE, 3, 6)] };
  return {
    capabilities: { textDocumentSync: { openClose: true, change: 2 } },
    rules: {
      initialized: [
        {
          request: 'client/registerCapability',
          params: {
            registrations: [{ id: 'types', method: 'textDocument/prepareTypeHierarchy', registerOptions: { documentSelector: [{ language: 'kotlin' }] } }],
          },
        },
      ],
      'textDocument/prepareTypeHierarchy': [{ respond: [item('Shape', 11, SHAPES, 2, 10)] }],
      // The fake cannot tell items apart: in the order the tests ask, Shape's subtypes, then
      // Square's (none), then Shape's again for every later opening.
      'typeHierarchy/subtypes': [{ sequence: 'subtypes', steps: [[shapeSubtypes], [{ respond: [] }], [shapeSubtypes]] }],
      'typeHierarchy/supertypes': [{ respond: [item('Solid', 11, 'src/Solid.kt', 2, 10)] }],
    },
  };
}

/** The headers of the panels below the editor that do not fit whole inside the editor column. */
function cutOffHeaders(p: Page): Promise<string[]> {
  return p.evaluate(() => {
    const column = document.querySelector('.session-main')?.getBoundingClientRect();
    if (!column) return ['no editor column'];
    return [...document.querySelectorAll('.session-main .panel-header')]
      .filter((h) => {
        const r = h.getBoundingClientRect();
        return r.top < column.top || r.bottom > column.bottom + 0.5;
      })
      .map((h) => h.textContent ?? '');
  });
}

describe.runIf(run)('type hierarchy panel (fake kotlin-lsp: no real server here answers prepareTypeHierarchy)', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let session: FakeSession;

  const activeTab = () => page.locator('[data-testid="editor-tab"][data-active="true"]').getAttribute('data-path');

  beforeAll(async () => {
    ({ stack, session, browser, page } = await openFakeEditor({ session: { binary: 'kotlin-lsp', script, files }, file: SHAPES }));
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('Show Type Hierarchy (context menu) lists subtypes across files, expands a level only when asked, and sends the server its items back', async () => {
    // The fake registers the type hierarchy after `initialized`, which may land after the status shows ready.
    await waitForOffered(page, 'kotlin', 'typeHierarchy');
    await setCaret(page, 3, 13); // interface Sh|ape
    await pickFromContextMenu(page, 'Show Type Hierarchy');
    await expect.poll(() => hierarchyRows(page), { timeout: 30_000 }).toEqual(['0:Shape', '1:Square', '1:Circle']);
    expect(await hierarchyPanel(page).getAttribute('data-direction')).toBe('subtypes');
    expect(received(session, 'typeHierarchy/subtypes').map((m) => m.params.item.data)).toEqual([{ name: 'Shape' }]);
    // The keyboard: the first row has the focus; Tab reaches the next row's expander.
    expect(await page.evaluate(() => document.activeElement?.closest('[data-name]')?.getAttribute('data-name'))).toBe('Shape');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Expand Square');
    await page.keyboard.press('Enter');
    await expect.poll(() => hierarchyRows(page), { timeout: 15_000 }).toEqual(['0:Shape', '1:Square', '2:(none)', '1:Circle']);
    expect(received(session, 'typeHierarchy/subtypes').map((m) => m.params.item.data)).toEqual([{ name: 'Shape' }, { name: 'Square' }]);
    await hierarchyItem(page, 'Circle').locator('[data-testid="hierarchy-open"]').click();
    await expect.poll(activeTab, { timeout: 15_000 }).toBe(CIRCLE);
    expect(await caretPosition(page)).toEqual({ lineNumber: 4, column: 7 });
  });

  it('Supertypes show what the type extends; Escape closes the panel', async () => {
    await hierarchyPanel(page).locator('[data-testid="hierarchy-direction"][data-direction="supertypes"]').click();
    await expect.poll(() => hierarchyRows(page), { timeout: 15_000 }).toEqual(['0:Shape', '1:Solid']);
    expect(received(session, 'typeHierarchy/supertypes').map((m) => m.params.item.data)).toEqual([{ name: 'Shape' }]);
    await hierarchyItem(page, 'Solid').locator('[data-testid="hierarchy-toggle"]').focus();
    await page.keyboard.press('Escape');
    expect(await hierarchyPanel(page).count()).toBe(0);
    // Back in the session's editor (asked from the context menu, which is gone by now).
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[data-testid="editor"]')))).toBe(true);
  });

  it('F1 (desktop) and Shift+Alt+T (tablet) open it again; axe finds nothing serious with the panel open, light and dark, desktop and tablet (screenshots)', async () => {
    const tablet = await (await newContext(browser.browser, 'tablet')).newPage();
    for (const [name, p] of [
      ['desktop', page],
      ['tablet', tablet],
    ] as const) {
      if (p === tablet) {
        await openSession(p, stack.url, session.sessionId);
        await openFile(p, SHAPES);
        await waitForLspState(p, 'kotlin', 'ready');
      } else {
        await openFile(p, SHAPES);
      }
      await setCaret(p, 3, 13);
      if (p === page) await runFromCommandPalette(p, 'Type Hierarchy', 'Show Type Hierarchy');
      else await p.keyboard.press('Shift+Alt+T');
      await expect.poll(() => hierarchyRows(p), { timeout: 30_000 }).toEqual(['0:Shape', '1:Square', '1:Circle']);
      // With the hierarchy and Problems open, the panels below the editor give up height so that every
      // header (Output's last) stays whole inside the editor column, not cut off at its bottom edge.
      expect(await cutOffHeaders(p), name).toEqual([]);
      for (const scheme of ['light', 'dark'] as const) {
        await emulateScheme(p, scheme);
        await expectTheme(p, scheme);
        await settled(p);
        const violations = await seriousAxeViolations(p);
        await screenshot(p, `hierarchy-panel-${name}-${scheme}`);
        expect(violations, `${name} ${scheme}`).toEqual([]);
      }
    }
  });
});
