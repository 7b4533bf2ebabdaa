import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Request, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LaunchedBrowser } from '../support/browser.js';
import { ensureBuilt } from '../support/build.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { openTaskEditor } from '../support/fakeEditor.js';
import { startStack, type RunningStack } from '../support/stack.js';
import { writeFiles } from '../support/files.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kandev-search-ws-'));
  const files: Record<string, string> = {
    'src/a.ts': 'const needle = 1;\nconst Needle = 2;\nconst needles = [needle];\n',
    'lib/b.py': "print('needle')\n",
    '.gitignore': 'out/\n',
    'out/c.txt': 'needle\n',
  };
  return writeFiles(dir, files);
}

/** The Search panel's options and streaming, against the real backend and agentctl. */
describe.runIf(run)('Search panel: options, streamed hits, cancellation', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let root: string | undefined;

  const hits = () => page.locator('[data-testid="search-hit"]');
  const locations = async () => {
    const all = await hits().evaluateAll((nodes) =>
      nodes.map((n) => `${n.getAttribute('data-path')}:${n.getAttribute('data-line')}:${n.getAttribute('data-column')}`),
    );
    return all.sort();
  };
  /** The panel shows the finished answer to exactly this query and these options (`needle|case,word`). */
  const done = (key: string) => page.locator(`[data-testid="search-panel"][data-search-state="done"][data-search-key=${JSON.stringify(key)}]`).waitFor();

  beforeAll(async () => {
    ensureBuilt('web-test');
    stack = await startStack();
    root = workspace();
    ({ browser, page } = await openTaskEditor(stack, { title: 'Search', workspace: root }));
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('finds every match ignoring case by default, and none in .gitignored folders', async () => {
    await page.getByTestId('search-input').fill('needle');
    await done('needle|');
    expect(await locations()).toEqual(['lib/b.py:1:8', 'src/a.ts:1:7', 'src/a.ts:2:7', 'src/a.ts:3:18', 'src/a.ts:3:7']);
  });

  it('match case, whole word and regular expression narrow the search, each a toggle', async () => {
    const input = page.getByTestId('search-input');
    const toggle = async (id: string, pressed: boolean, key: string) => {
      await page.getByTestId(id).click();
      await page.locator(`[data-testid="${id}"][aria-pressed="${pressed}"]`).waitFor();
      await done(key);
    };
    await input.fill('Needle');
    await done('Needle|');
    await toggle('search-case', true, 'Needle|case');
    expect(await locations()).toEqual(['src/a.ts:2:7']);
    await toggle('search-case', false, 'Needle|');
    await input.fill('needle');
    await done('needle|');
    await toggle('search-word', true, 'needle|word');
    expect(await locations()).toEqual(['lib/b.py:1:8', 'src/a.ts:1:7', 'src/a.ts:2:7', 'src/a.ts:3:18']);
    await toggle('search-word', false, 'needle|');
    await input.fill('^print\\(');
    await done('^print\\(|');
    expect(await hits().count()).toBe(0);
    await toggle('search-regex', true, '^print\\(|regex');
    expect(await locations()).toEqual(['lib/b.py:1:1']);
  });

  it('an invalid regular expression says so instead of showing no matches', async () => {
    await page.getByTestId('search-input').fill('(unclosed');
    await page.locator('[data-testid="search-panel"][data-search-state="error"][data-search-key="(unclosed|regex"]').waitFor();
    expect(await page.locator('.search-panel [role="alert"]').innerText()).toBe('This search is not valid: check the regular expression.');
    await page.getByTestId('search-regex').click();
    await page.locator('[data-testid="search-regex"][aria-pressed="false"]').waitFor();
  });

  it('a new query aborts the running search, whose hits never show', async () => {
    // The first search reaches the backend, which answers it with hits; the answer is held on
    // its way back to the page, so the search is certainly still running there when the next
    // query is typed.
    const answered: Array<{ status: number; body: string }> = [];
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(
      (url) => url.pathname.endsWith('/search') && url.searchParams.get('q') === 'Needle',
      async (route: Route) => {
        const response = await route.fetch();
        // The hits stream as NDJSON, one line each, as the task host finds them.
        const body = await response.text();
        answered.push({ status: response.status(), body });
        await released;
        await route.fulfill({ response, body }).catch(() => undefined);
      },
    );
    const firstFailed = new Promise<Request>((resolve) =>
      page.on('requestfailed', (r) => {
        if (new URL(r.url()).searchParams.get('q') === 'Needle') resolve(r);
      }),
    );
    const input = page.getByTestId('search-input');
    await input.fill('Needle');
    await page.locator('[data-testid="search-panel"][data-search-state="searching"]').waitFor();
    await expect.poll(() => answered.length).toBe(1);
    expect(answered[0]!.status).toBe(200);
    expect(answered[0]!.body).toContain('src/a.ts');
    await input.fill('print');
    expect((await firstFailed).failure()?.errorText).toMatch(/ABORTED/);
    // The backend's answer is let go now: the page has dropped that request, nothing of it shows.
    release();
    await done('print|');
    expect(await locations()).toEqual(['lib/b.py:1:1']);
    await page.unrouteAll({ behavior: 'wait' });
    expect(await locations()).toEqual(['lib/b.py:1:1']);
  });
});
