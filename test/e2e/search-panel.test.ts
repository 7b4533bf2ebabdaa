import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Request, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LaunchedBrowser } from '../support/browser.js';
import { ensureBuilt } from '../support/build.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { openTaskEditor } from '../support/fakeEditor.js';
import { openSession } from '../support/page.js';
import { startStack, taskPath, type RunningStack } from '../support/stack.js';
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

  it('the aborted search stops on the task host too: its ripgrep is killed and agentctl logs it cancelled', async () => {
    // The test above holds the answer in the page's route, so the backend had already finished
    // that search. Here the task host's `rg` streams one hit and then keeps running, so the search
    // is still running on the task host when the next query is typed.
    const dir = mkdtempSync(join(tmpdir(), 'kandev-search-slow-'));
    const bin = join(dir, 'bin');
    const ws = join(dir, 'workspace');
    mkdirSync(bin);
    mkdirSync(ws);
    writeFileSync(join(ws, 'slow.txt'), 'a needle\n');
    const pids = join(dir, 'rg.pids');
    const match = JSON.stringify({
      type: 'match',
      data: {
        path: { text: 'slow.txt' },
        lines: { text: 'a needle\n' },
        line_number: 1,
        absolute_offset: 0,
        submatches: [{ match: { text: 'needle' }, start: 2, end: 8 }],
      },
    });
    writeFileSync(join(bin, 'rg'), `#!/bin/sh\necho $$ >> '${pids}'\nprintf '%s\\n' '${match}'\nexec /bin/sleep 30\n`);
    chmodSync(join(bin, 'rg'), 0o755);
    try {
      const task = await stack.createTask({ title: 'Slow search', workspace: ws, env: { PATH: taskPath(bin) } });
      const slowSession = (await stack.startSession(task.id)).id;
      await openSession(page, stack.url, slowSession);
      const input = page.getByTestId('search-input');
      await input.fill('needle');
      await page.locator('[data-testid="search-panel"][data-search-state="searching"] [data-testid="search-hit"][data-path="slow.txt"]').waitFor();
      const [first] = readFileSync(pids, 'utf8').trim().split('\n').map(Number);
      await input.fill('other');
      await page.locator('[data-testid="search-panel"][data-search-state="searching"][data-search-key="other|"]').waitFor();
      // agentctl's own log (one per session) says how the first search ended; its rg is gone.
      const log = join(stack.home, 'logs', `agentctl-${slowSession}.log`);
      await expect.poll(() => (existsSync(log) ? readFileSync(log, 'utf8') : ''), { timeout: 15_000 }).toMatch(/"search_cancelled"/);
      expect(readFileSync(log, 'utf8').match(/"search_(finished|cancelled)"/g)).toEqual(['"search_cancelled"']);
      const alive = (pid: number) => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      await expect.poll(() => alive(first as number), { timeout: 5_000 }).toBe(false);
      // Clearing the query stops the second one as well.
      await input.fill('');
      await expect.poll(() => readFileSync(log, 'utf8').match(/"search_cancelled"/g)?.length, { timeout: 15_000 }).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
