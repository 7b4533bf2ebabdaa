/**
 * bash-language-server's explainshell lookup as a witness that an untrusted workspace's server is
 * off the network on Local Docker too (docs/workspace-trust.md), through the product in Chromium.
 * The task container shares this host's network (host networking), so the explainshell endpoint,
 * an HTTP listener on this host's 127.0.0.1 named in the user's settings, is within the
 * container's reach: only the sandbox agentctl puts an untrusted server in (bubblewrap, under
 * Kandev's seccomp profile) keeps the server from it. bash-language-server is installed from npm by
 * agentctl inside the container, into a task HOME both tasks share.
 *
 * - Trusted first: a hover on a call of the script's own function makes the server ask the
 *   listener, and its explanation is the hover (the witness works, so the next check can fail).
 * - Untrusted: the same hover still answers, with the function's own documentation, which the
 *   server only reaches after its explainshell attempt failed; the listener was not contacted, and
 *   the server's details say it runs without network.
 *
 * Each check is made once the answer it depends on is on screen: the marker the user's
 * configuration turns on (the server has read it, endpoint and all), then the hover. The script
 * needs no tool the base image lacks (no shellcheck, man or col): the marker and the fallback
 * documentation are the server's own analysis.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Task } from '@kandev/protocol';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONTAINER_SYSTEM_PATH,
  containerCaEnv,
  dockerAvailable,
  dockerBackendEnv,
  removeOwnedContainers,
  startDockerEnv,
  stopDockerEnv,
  type DockerEnv,
} from '../integration/docker-support.js';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import {
  CONFIGURED,
  EXPLAINED,
  explainshellSettings,
  hoverText,
  NETWORK_OFF_NOTE,
  startExplainshellListener,
  type ExplainshellListener,
} from '../support/explainshell.js';
import { writeFiles } from '../support/files.js';
import { openFile, openLspPanel, openSession, putSettings, startEditorStack, waitForLspState } from '../support/page.js';
import type { RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)') && dockerAvailable;

const INSTALL_TIMEOUT = 420_000;
/** One HOME for both task containers (a mount), so bash-language-server is installed once. */
const CONTAINER_HOME = '/kandev-home';
const CONTAINER_NPM_CACHE = '/kandev-npm-cache';

const SCRIPT = 'scripts/greet.sh';
// The non-constant `source` is marked only once the server has read the user's configuration.
const SCRIPT_TEXT = [
  '#!/usr/bin/env bash',
  '# Greets whoever is named.',
  'greet() {',
  '  echo "hello $1"',
  '}',
  '',
  'source "$HOME/.greetrc"',
  'greet world',
  '',
].join('\n');
/** The call, not the declaration: the server documents a function at its calls. */
const CALL = 'greet world';
/** The server's own documentation of the function, from its comment. */
const DOCUMENTED = /Greets whoever is named/;

describe.runIf(run)("bash-language-server's explainshell lookup on Local Docker: a loopback listener only a trusted workspace's server reaches", () => {
  let env: DockerEnv;
  let listener: ExplainshellListener;
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let work: string;

  beforeAll(async () => {
    env = startDockerEnv();
    listener = await startExplainshellListener();
    work = mkdtempSync(join(tmpdir(), 'kandev-e2e-explainshell-docker-'));
    mkdirSync(join(work, 'home'));
    const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
    stack = await startEditorStack({
      ...dockerBackendEnv(env),
      KANDEV_DOCKER_MOUNTS: JSON.stringify([`${join(work, 'home')}:${CONTAINER_HOME}:rw`, `${npmCache}:${CONTAINER_NPM_CACHE}:rw`]),
    });
    await putSettings(stack, explainshellSettings(listener));
    browser = await launchChromium();
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    const home = stack?.home;
    await stack?.stop();
    if (env && home) await removeOwnedContainers(env.docker, home);
    stopDockerEnv(env);
    await listener?.close();
    // The server installed by the container's root: removed as root, like the rest of the folder.
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** A Local Docker task on its own copy of the script, trusted or not, opened in a new page once the server has its configuration. */
  async function openScript(trusted: boolean): Promise<Page> {
    const workspace = writeFiles(mkdtempSync(join(work, 'workspace-')), { [SCRIPT]: SCRIPT_TEXT });
    const task = await stack.createTask({
      title: trusted ? 'trusted docker shell' : 'untrusted docker shell',
      executor: 'local_docker',
      workspace,
      env: { PATH: CONTAINER_SYSTEM_PATH, HOME: CONTAINER_HOME, npm_config_cache: CONTAINER_NPM_CACHE, ...containerCaEnv(workspace) },
    });
    if (trusted) await stack.api<Task>(`/api/tasks/${task.id}`, { method: 'PATCH', body: { trustWorkspaceTools: true } });
    expect((await stack.api<Task>(`/api/tasks/${task.id}`)).trustWorkspaceTools).toBe(trusted);
    const sessionId = (await stack.startSession(task.id)).id;
    const page = await (await newContext(browser.browser)).newPage();
    await openSession(page, stack.url, sessionId);
    await openFile(page, SCRIPT);
    await waitForLspState(page, 'shell', 'ready', INSTALL_TIMEOUT);
    await page.waitForFunction(
      ({ sessionId, path, configured }) =>
        ((window as any).__kandev.getModelMarkers(sessionId, path) as Array<{ message: string }>).some((m) => new RegExp(configured).test(m.message)),
      { sessionId, path: SCRIPT, configured: CONFIGURED.source },
      { timeout: 90_000 },
    );
    return page;
  }

  it(
    'trusted: a hover on the call asks the listener to explain the command, and shows its answer (the witness works)',
    async () => {
      const page = await openScript(true);
      const hover = await hoverText(page, CALL);
      expect(listener.requests).toEqual(['/explain?cmd=greet']);
      expect(hover).toContain(EXPLAINED);
      // Trusted: no network note in the details.
      await openLspPanel(page, 'shell');
      expect(await page.locator('[data-testid="lsp-network"]').count()).toBe(0);
      await page.context().close();
    },
    INSTALL_TIMEOUT + 60_000,
  );

  it(
    "untrusted: the same hover answers with the function's documentation, the listener was never contacted, and the details say the server runs without network",
    async () => {
      const before = listener.requests.length;
      const page = await openScript(false);
      const hover = await hoverText(page, CALL);
      expect(hover).not.toContain(EXPLAINED);
      expect(hover).toMatch(DOCUMENTED);
      expect(listener.requests.slice(before)).toEqual([]);
      const note = (await openLspPanel(page, 'shell')).locator('[data-testid="lsp-network"]');
      expect(await note.getAttribute('data-network')).toBe('off');
      expect(await note.textContent()).toBe(NETWORK_OFF_NOTE);
      await page.context().close();
    },
    INSTALL_TIMEOUT,
  );
});
