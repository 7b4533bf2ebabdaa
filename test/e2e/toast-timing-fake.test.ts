import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { inLightAndDark, screenshot, seriousAxeViolations } from '../support/app.js';
import type { LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { openFakeEditor } from '../support/fakeEditor.js';
import { runEditorAction, setCaret, suggestRows, withEditor } from '../support/page.js';
import type { RunningStack } from '../support/stack.js';

/**
 * A toast the person is reading stays, and a toast never covers what the person asked for
 * (docs/editing.md, "When a request fails"), in Chromium against the fake installed as
 * `kotlin-lsp`: go to definition always fails (a failure toast), completion and hover answer at
 * once with long answers. The page's clock is installed (it runs with real time until a test
 * pauses it), so the toast's time is measured on it and never waited for.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const MAIN = 'src/Main.kt';
const LINES = 80;
const source = ['package demo', '', 'fun main() {', ...Array.from({ length: LINES - 5 }, (_, i) => `    val v${i} = ${i}`), '}', ''].join('\n');
const LAST_VAL = LINES - 2;
/** The toast's time on screen (the default; the test build reads no other). */
const TOAST_MS = 10_000;

const script: FakeScript = {
  capabilities: {
    textDocumentSync: { openClose: true, change: 2 },
    definitionProvider: true,
    hoverProvider: true,
    completionProvider: { triggerCharacters: ['.'] },
  },
  rules: {
    'textDocument/definition': [{ error: { code: -32603, message: 'Definition index is corrupt' } }],
    'textDocument/completion': [
      { respond: { isIncomplete: false, items: Array.from({ length: 40 }, (_, i) => ({ label: `suggestion${i}`, kind: 6, detail: 'Int' })) } },
    ],
    'textDocument/hover': [
      {
        respond: {
          contents: {
            kind: 'markdown',
            value: ['**v0**: `Int`', '', ...Array.from({ length: 12 }, (_, i) => `Line ${i + 1} of what the server says about it.`)].join('\n\n'),
          },
        },
      },
    ],
  },
};

const pageNow = (page: Page) => page.evaluate(() => Date.now());
const toasts = (page: Page) => page.locator('[data-testid="server-toast"]');

/** Go to definition on the last line: a failure toast (a fresh one, with its full time). */
async function failureToast(page: Page): Promise<Locator> {
  if ((await toasts(page).count()) > 0) await toasts(page).getByTestId('server-toast-dismiss').click();
  await expect.poll(() => toasts(page).count(), { timeout: 5_000 }).toBe(0);
  await setCaret(page, LAST_VAL, 9);
  await runEditorAction(page, 'editor.action.revealDefinition');
  await expect.poll(() => toasts(page).count(), { timeout: 15_000 }).toBe(1);
  return toasts(page);
}

/**
 * The last value's line at the bottom of the editor, the caret before its number (no word typed
 * yet, so every suggestion shows): where a widget has the least room below.
 */
async function caretAtTheBottom(page: Page): Promise<void> {
  // The editor's height first settles (a new window size, the toast strip): a scroll computed from a
  // height that then shrank left the caret's line below the editor, and Monaco keeps a widget whose
  // line is out of view hidden.
  await expect
    .poll(
      () =>
        page.evaluate(
          () =>
            new Promise<boolean>((resolve) => {
              const editor = (window as any).__kandev.monaco.editor.getEditors().find((e: any) => e.getModel());
              const height = () => `${editor.getLayoutInfo().height} ${editor.getContainerDomNode().getBoundingClientRect().height}`;
              const first = height();
              requestAnimationFrame(() => requestAnimationFrame(() => resolve(first === height())));
            }),
        ),
      { timeout: 15_000 },
    )
    .toBe(true);
  await withEditor(
    page,
    (editor, monaco, line: number) => {
      editor.setPosition({ lineNumber: line, column: 15 });
      const height = editor.getLayoutInfo().height as number;
      const lineHeight = editor.getOption(monaco.editor.EditorOption.lineHeight) as number;
      editor.setScrollTop(Math.max(0, (editor.getTopForLineNumber(line) as number) - height + 2 * lineHeight));
      editor.focus();
    },
    LAST_VAL,
  );
}

/**
 * The widget's box once it is shown and still: drawn (not `visibility: hidden`, as Monaco keeps a
 * content widget until its next frame places it) and in the same place two frames running. Read
 * earlier, the check below met a widget Monaco was still placing (hidden, at the editor's corner).
 */
async function settledBox(page: Page, widget: string): Promise<string> {
  return page.evaluate(
    (selector) =>
      new Promise<string>((resolve) => {
        const boxOf = () => {
          const el = document.querySelector(selector);
          if (!el || getComputedStyle(el).visibility !== 'visible') return 'not shown';
          const b = el.getBoundingClientRect();
          return `${Math.round(b.left)},${Math.round(b.top)} ${Math.round(b.width)}x${Math.round(b.height)}`;
        };
        const first = boxOf();
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(first === boxOf() ? first : 'moving')));
      }),
    widget,
  );
}

/**
 * Whether `widget` is on top wherever it is drawn: at a grid of points over its box, the element
 * hit is the widget or inside it (a toast drawn over it would be hit instead).
 */
async function coveredPoints(page: Page, widget: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const el = document.querySelector(selector);
    if (!el) return ['no widget'];
    const box = el.getBoundingClientRect();
    const covered: string[] = [];
    for (let x = 0.1; x < 1; x += 0.2) {
      for (let y = 0.05; y < 1; y += 0.1) {
        const px = box.left + box.width * x;
        const py = box.top + box.height * y;
        if (px >= window.innerWidth || py >= window.innerHeight) continue;
        const hit = document.elementFromPoint(px, py);
        if (!hit || !el.contains(hit)) covered.push(`${Math.round(px)},${Math.round(py)}: ${hit?.className ?? 'nothing'}`);
      }
    }
    return covered;
  }, widget);
}

/** A widget's box and the toast strip's box overlap (the widget extends over the strip). */
async function overlapsStrip(page: Page, widget: string): Promise<boolean> {
  return page.evaluate((selector) => {
    const a = document.querySelector(selector)?.getBoundingClientRect();
    const b = document.querySelector('[data-testid="server-toasts"]')?.getBoundingClientRect();
    return !!a && !!b && a.bottom > b.top && a.top < b.bottom;
  }, widget);
}

describe.runIf(run)('toasts: held while read, and never over the suggestion list or the hover (fake kotlin-lsp)', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;

  beforeAll(async () => {
    ({ stack, browser, page } = await openFakeEditor({
      session: { binary: 'kotlin-lsp', script, files: { [MAIN]: source } },
      file: MAIN,
      beforeOpen: (page) => page.clock.install(),
    }));
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it("a toast stays while the pointer is over it or focus is within it, and goes with the time it had left (the page's clock)", async () => {
    // Page time stands still from before the failure: the toast's time starts at `shownAt`.
    await page.clock.pauseAt((await pageNow(page)) + 1_000);
    try {
      const shownAt = await pageNow(page);
      const toast = await failureToast(page);
      await page.clock.runFor(4_000);
      // The pointer over it: it stays past its time.
      const box = (await toast.boundingBox())!;
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.clock.runFor(3 * TOAST_MS);
      expect(await toast.count()).toBe(1);
      // Focus on its button, then the pointer leaves: still held.
      await toast.getByTestId('server-toast-dismiss').focus();
      await page.mouse.move(1, 1);
      await page.clock.runFor(3 * TOAST_MS);
      expect(await toast.count()).toBe(1);
      // Focus leaves too: the 6 s it had left run from here, not a millisecond less.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      expect((await pageNow(page)) - shownAt).toBe(4_000 + 6 * TOAST_MS);
      await page.clock.runFor(TOAST_MS - 4_000 - 1);
      expect(await toast.count()).toBe(1);
      await page.clock.runFor(1);
      // Drawn by the next render (no timer involved).
      await expect.poll(() => toast.count(), { timeout: 5_000 }).toBe(0);
    } finally {
      await page.clock.resume();
    }
  });

  for (const [size, viewport] of [
    ['tablet', { width: 1024, height: 768 }],
    ['narrow', { width: 480, height: 720 }],
  ] as const) {
    it(`${size} window: a toast on screen never covers the suggestion list or the hover, light and dark`, async () => {
      await page.setViewportSize(viewport);
      await inLightAndDark(page, async (scheme) => {
        for (const [widget, action, selector] of [
          ['suggest', 'editor.action.triggerSuggest', '.editor-widget.suggest-widget.visible'],
          ['hover', 'editor.action.showHover', '.monaco-hover:not(.hidden)'],
        ] as const) {
          await failureToast(page);
          await caretAtTheBottom(page);
          await runEditorAction(page, action);
          if (widget === 'suggest') await expect.poll(() => suggestRows(page).count(), { timeout: 15_000 }).toBeGreaterThan(0);
          else await page.locator(selector).waitFor({ timeout: 15_000 });
          await expect.poll(() => settledBox(page, selector), { timeout: 15_000 }).toMatch(/^\d+,\d+ \d+x\d+$/);
          expect(await toasts(page).count()).toBe(1);
          await screenshot(page, `toast-with-${widget}-${size}-${scheme}`);
          const overlap = await overlapsStrip(page, selector);
          expect(await coveredPoints(page, selector), `${widget} overlaps the strip: ${overlap}`).toEqual([]);
          expect(await seriousAxeViolations(page)).toEqual([]);
          await page.keyboard.press('Escape');
        }
      });
    });
  }
});
