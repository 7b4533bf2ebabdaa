/**
 * bash-language-server's explainshell lookup as a witness that an untrusted workspace's server is
 * off the network (docs/workspace-trust.md), on Local PC, through the product: the explainshell
 * endpoint is set in the user's per-language settings (PUT /api/settings, `lsp_server_configs.shell`)
 * to an HTTP listener on this host's loopback, a `.sh` file is opened in Chromium, and a hover on
 * `ls` makes the server ask the endpoint for `/explain?cmd=ls` before anything else it answers with.
 *
 * - Trusted: the listener is contacted and its explanation is the hover (the witness works).
 * - Untrusted (bubblewrap's network namespace): the hover still answers (the `ls` man page, which
 *   the server only reaches after its explainshell attempt failed), and the listener was never
 *   contacted by then.
 *
 * Each check is made once the answer it depends on is on screen: the first shellcheck diagnostics
 * (the server is initialized and has read its configuration), then the hover.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Task } from '@kandev/protocol';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { writeFiles } from '../support/files.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { EXPLAINED, explainshellSettings, hoverText, startExplainshellListener, type ExplainshellListener } from '../support/explainshell.js';
import { markers, openFile, openSession, putSettings, startEditorStack, waitForLspState } from '../support/page.js';
import type { RunningStack } from '../support/stack.js';

const has = (command: string, args: string[]) => {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const run =
  prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)') &&
  prerequisite(existsSync('/usr/bin/bwrap'), 'bubblewrap (apt-get install bubblewrap)') &&
  prerequisite(has('shellcheck', ['--version']), 'shellcheck (apt-get install shellcheck)') &&
  prerequisite(has('man', ['--version']), 'man (apt-get install man-db)') &&
  prerequisite(has('npm', ['--version']), 'npm');

const SCRIPT = 'scripts/list.sh';
// `$1` unquoted: shellcheck's SC2086 is the first diagnostic the file gets.
const SCRIPT_TEXT = ['#!/usr/bin/env bash', 'ls -la $1', ''].join('\n');
const FIRST_FINDING = /Double quote to prevent globbing and word splitting/;

describe.runIf(run)("bash-language-server's explainshell lookup: a loopback listener only a trusted workspace's server reaches", () => {
  let listener: ExplainshellListener;
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let work: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    listener = await startExplainshellListener();
    work = mkdtempSync(join(tmpdir(), 'kandev-e2e-explainshell-'));
    stack = await startEditorStack();
    await putSettings(stack, explainshellSettings(listener));
    // One task HOME for both tasks: bash-language-server is installed once; npm's download cache is shared.
    const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
    env = { HOME: join(work, 'home'), npm_config_cache: npmCache };
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    await listener?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** A task on its own copy of the script, trusted or not, opened in a new page at the script. */
  async function openScript(trusted: boolean): Promise<Page> {
    const workspace = writeFiles(mkdtempSync(join(work, 'workspace-')), { [SCRIPT]: SCRIPT_TEXT });
    const task = await stack.createTask({ title: trusted ? 'trusted shell' : 'untrusted shell', workspace, env });
    if (trusted) await stack.api<Task>(`/api/tasks/${task.id}`, { method: 'PATCH', body: { trustWorkspaceTools: true } });
    expect((await stack.api<Task>(`/api/tasks/${task.id}`)).trustWorkspaceTools).toBe(trusted);
    const sessionId = (await stack.startSession(task.id)).id;
    const page = await (await newContext(browser.browser)).newPage();
    await openSession(page, stack.url, sessionId);
    await openFile(page, SCRIPT);
    await waitForLspState(page, 'shell', 'ready', 240_000);
    // The first diagnostics: the server has initialized and pulled its configuration (the endpoint).
    await page.waitForFunction(
      ({ sessionId, path, finding }) =>
        ((window as any).__kandev.getModelMarkers(sessionId, path) as Array<{ message: string }>).some((m) => new RegExp(finding).test(m.message)),
      { sessionId, path: SCRIPT, finding: FIRST_FINDING.source },
      { timeout: 90_000 },
    );
    expect((await markers(page, sessionId, SCRIPT)).map((m) => m.message).join('\n')).toMatch(FIRST_FINDING);
    return page;
  }

  it('untrusted: the hover on `ls` answers from the man page and the listener was never contacted', async () => {
    const page = await openScript(false);
    const hover = await hoverText(page, 'ls -la');
    expect(hover).not.toContain(EXPLAINED);
    expect(hover).toMatch(/list directory contents/i);
    expect(listener.requests).toEqual([]);
    await page.context().close();
  }, 420_000);

  it('trusted: the same hover asks the listener to explain the command, and shows its answer (the witness works)', async () => {
    const before = listener.requests.length;
    const page = await openScript(true);
    const hover = await hoverText(page, 'ls -la');
    // The server explains the hovered word's syntax node: the command name.
    expect(listener.requests.slice(before)).toEqual(['/explain?cmd=ls']);
    expect(hover).toContain(EXPLAINED);
    await page.context().close();
  }, 420_000);
});
