import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { markers, openFile, setCaret, startEditorStack, waitForLspState } from '../support/page.js';
import { openTaskEditor } from '../support/fakeEditor.js';
import type { RunningStack } from '../support/stack.js';
import { writeFiles } from '../support/files.js';

/**
 * A cursor resting in a file costs nothing: once the requests the editor makes on its own
 * (code actions, highlights, semantic tokens, symbols, folding, diagnostics) have been answered
 * for what is on screen, an idle focused editor sends no more requests to its server.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const FILES: Record<string, string> = {
  'app/main.py': ['def helper(n: int) -> int:', '    return n * 2', '', 'x: str = helper(1)', ''].join('\n'),
  'src/main.ts': ['export function helper(n: number): number {', '  return n * 2;', '}', '', 'export const x: string = helper(1);', ''].join('\n'),
  'tsconfig.json': '{ "compilerOptions": { "strict": true } }\n',
};

/** Requests (frames with an id and a method) the page sends on its LSP sockets, with the time they were seen. */
interface SentRequest {
  method: string;
  /** The params as sent: two equal ones for an unchanged document ask the server the same question twice. */
  params: string;
  at: number;
}

function recordRequests(page: Page): SentRequest[] {
  const sent: SentRequest[] = [];
  page.on('websocket', (ws) =>
    ws.on('framesent', (f) => {
      const message = JSON.parse(String(f.payload)) as { id?: unknown; method?: unknown; params?: unknown };
      if (message.id === undefined || typeof message.method !== 'string') return;
      sent.push({ method: message.method, params: JSON.stringify(message.params ?? null), at: Date.now() });
    }),
  );
  return sent;
}

/**
 * Requests about `uri` the editor asked on its own more than once with the same params (the
 * document never changes in these tests). Diagnostic pulls are left out: they follow the server's
 * own `workspace/diagnostic/refresh` requests, which pyright sends as its analysis proceeds.
 */
function repeated(requests: SentRequest[], uri: string): string[] {
  const seen = new Map<string, number>();
  for (const r of requests)
    if (r.params.includes(uri) && r.method !== 'textDocument/diagnostic') seen.set(`${r.method} ${r.params}`, (seen.get(`${r.method} ${r.params}`) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([what, n]) => `${n}x ${what}`);
}

describe.runIf(run)('an idle editor sends nothing more (real pyright and typescript-language-server)', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let sessionId: string;
  let requests: SentRequest[];
  let workspace: string;

  beforeAll(async () => {
    stack = await startEditorStack();
    workspace = writeFiles(mkdtempSync(join(tmpdir(), 'kandev-idle-')), FILES);
    ({ browser, page, sessionId } = await openTaskEditor(stack, { title: 'Idle requests', workspace }));
    requests = recordRequests(page);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  /**
   * Waits until the editor has been quiet for `quietMs` since the last request and since now (what
   * just happened, such as markers arriving, may still ask once), then returns what `idleMs` more brings.
   */
  async function requestsWhileIdle(quietMs: number, idleMs: number): Promise<string[]> {
    const since = Date.now();
    for (;;) {
      const last = Math.max(since, requests[requests.length - 1]?.at ?? 0);
      if (Date.now() - last >= quietMs) break;
      await page.waitForTimeout(250);
    }
    const from = requests.length;
    await page.waitForTimeout(idleMs);
    return requests.slice(from).map((r) => r.method);
  }

  it('python: with the cursor at the start of a file, code actions are not asked again and again; nothing more is asked', async () => {
    await openFile(page, 'app/main.py');
    await waitForLspState(page, 'python', 'ready');
    await setCaret(page, 1, 1);
    const methods = await requestsWhileIdle(5_000, 8_000);
    expect(methods).toEqual([]);
    expect(repeated(requests, `${workspace}/app/main.py`)).toEqual([]);
  });

  it('typescript: with the cursor at the start of a file with a finding, nothing is asked again and again', async () => {
    await openFile(page, 'src/main.ts');
    await waitForLspState(page, 'typescript', 'ready');
    await setCaret(page, 1, 1);
    await expect.poll(async () => (await markers(page, sessionId, 'src/main.ts')).length, { timeout: 60_000 }).toBeGreaterThan(0);
    const methods = await requestsWhileIdle(5_000, 8_000);
    expect(methods).toEqual([]);
    expect(repeated(requests, `${workspace}/src/main.ts`)).toEqual([]);
  });
});
