import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONTAINER_SYSTEM_PATH,
  dockerAvailable,
  dockerBackendEnv,
  type DockerEnv,
  removeOwnedContainers,
  startDockerEnv,
  stopDockerEnv,
} from '../integration/docker-support.js';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { ensureBuilt, repoRoot } from '../support/build.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { markers, openFile, openSession, waitForLspState } from '../support/page.js';
import { copyDemoWorkspace, startStack, type RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)') && dockerAvailable;

/**
 * The live workspace on a Local Docker task host, in Chromium: pyright runs in the container, the
 * container's agentctl watches the bind-mounted workspace, and a function renamed on disk from
 * outside in app/util.py (never opened) shows as a squiggle in the open app/main.py.
 */
describe.runIf(run)('live workspace in Chromium on Local Docker: pyright hears a disk rename', () => {
  let env: DockerEnv;
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let sessionId: string;
  let workspace: string;

  beforeAll(async () => {
    env = startDockerEnv();
    ensureBuilt('web-test');
    stack = await startStack({
      ...dockerBackendEnv(env),
      // The repository's npm language servers, read-only, as the container's toolchain.
      KANDEV_DOCKER_MOUNTS: JSON.stringify([`${join(repoRoot, 'node_modules')}:/opt/tools/node_modules:ro`]),
    });
    workspace = copyDemoWorkspace();
    const task = await stack.api<{ id: string }>('/api/tasks', {
      body: {
        title: 'docker live',
        executor: 'local_docker',
        repositories: [{ path: workspace }],
        env: { PATH: `/opt/tools/node_modules/.bin:${CONTAINER_SYSTEM_PATH}` },
      },
    });
    sessionId = (await stack.startSession(task.id)).id;
    browser = await launchChromium();
    page = await (await newContext(browser.browser)).newPage();
    await openSession(page, stack.url, sessionId);
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    const home = stack?.home;
    await stack?.stop();
    if (env && home) await removeOwnedContainers(env.docker, home);
    stopDockerEnv(env);
  });

  it('add_numbers renamed on disk: app/main.py is marked with the broken import', async () => {
    await openFile(page, 'app/main.py');
    await waitForLspState(page, 'python', 'ready', 180_000);
    const messages = async () => (await markers(page, sessionId, 'app/main.py')).map((m) => m.message).join('\n');
    // The demo's deliberate type error shows first: pyright has analysed main.py.
    await expect.poll(messages, { timeout: 90_000 }).toMatch(/is not assignable to declared type "str"|"int" is not assignable to "str"/);
    const broken = /"add_numbers" is unknown import symbol/;
    expect(await messages()).not.toMatch(broken);
    const util = join(workspace, 'app/util.py');
    writeFileSync(util, readFileSync(util, 'utf8').replace('def add_numbers', 'def sum_numbers'));
    await expect.poll(messages, { timeout: 30_000 }).toMatch(broken);
  }, 300_000);
});
