import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONTAINER_SYSTEM_PATH,
  dockerAvailable,
  dockerBackendEnv,
  type DockerEnv,
  imageWithoutBwrap,
  startDockerEnv,
  stopDockerEnv,
} from '../integration/docker-support.js';
import { emulateScheme, expectTheme, screenshot, settled } from '../support/app.js';
import { launchChromium, newContext, type LaunchedBrowser, type Viewport } from '../support/browser.js';
import { ensureBuilt, repoRoot } from '../support/build.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { openFile, openLspPanel, openSession, waitForLspState } from '../support/page.js';
import { copyDemoWorkspace, startStack, type RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)') && dockerAvailable;
/** A phone shows the plain viewer and never starts a language server, so it has no such details. */
const VIEWPORTS: Viewport[] = ['desktop', 'tablet'];
const SCHEMES = ['light', 'dark'] as const;

/** A task image without bubblewrap: its container cannot take a server off the network. */
const NO_BWRAP_IMAGE = `kandev-e2e-nobwrap-${process.pid}`;

/**
 * The page says whether an untrusted workspace's language server is off the network
 * (docs/workspace-trust.md): the server's status details carry the task host's answer. A Local
 * Docker container whose image lacks bubblewrap cannot take it off the network, so the details say
 * so, on every layout and theme; a Local Docker container of the base image (Kandev's seccomp
 * profile, bubblewrap installed) and a Local PC task host with bubblewrap say it is off. Every task
 * is untrusted (the default); their TypeScript server is the real one.
 */
describe.runIf(run)('the status details say whether an untrusted server is off the network', () => {
  let env: DockerEnv;
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let dockerSession: string;
  let sandboxedDockerSession: string;
  let localSession: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    env = startDockerEnv();
    ensureBuilt('web-test');
    stack = await startStack({
      ...dockerBackendEnv(env),
      KANDEV_DOCKER_MOUNTS: JSON.stringify([`${join(repoRoot, 'node_modules')}:/opt/tools/node_modules:ro`]),
    });
    const dockerTask = async (title: string, image: Record<string, string>) => {
      const task = await stack.createTask({
        title,
        executor: 'local_docker',
        workspace: copyDemoWorkspace(),
        env: { PATH: `/opt/tools/node_modules/.bin:${CONTAINER_SYSTEM_PATH}`, ...image },
      });
      expect(task.trustWorkspaceTools).toBe(false);
      return (await stack.startSession(task.id)).id;
    };
    dockerSession = await dockerTask('untrusted docker without bubblewrap', { KANDEV_DOCKER_IMAGE: await imageWithoutBwrap(env, NO_BWRAP_IMAGE) });
    sandboxedDockerSession = await dockerTask('untrusted docker', {});
    const local = await stack.createTask({ title: 'untrusted local', workspace: copyDemoWorkspace() });
    localSession = (await stack.startSession(local.id)).id;
    browser = await launchChromium();
  }, 600_000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    // Stopping the backend stops its sessions, which removes their containers.
    await stack?.stop();
    await env?.docker
      .getImage(NO_BWRAP_IMAGE)
      .remove({ force: true })
      .catch(() => undefined);
    stopDockerEnv(env);
  });

  async function detailsOf(sessionId: string, viewport: Viewport, scheme: 'light' | 'dark'): Promise<Page> {
    const context = await newContext(browser.browser, viewport);
    contexts.push(context);
    const page = await context.newPage();
    await emulateScheme(page, scheme);
    await openSession(page, stack.url, sessionId);
    await expectTheme(page, scheme);
    await openFile(page, 'src/main.ts');
    await waitForLspState(page, 'typescript', 'ready', 180_000);
    await openLspPanel(page, 'typescript', viewport === 'desktop' ? 'click' : 'tap');
    return page;
  }

  for (const viewport of VIEWPORTS) {
    for (const scheme of SCHEMES) {
      it(`${viewport} ${scheme}: Local Docker without bubblewrap, untrusted: the details say the task host cannot take the server off the network`, async () => {
        const page = await detailsOf(dockerSession, viewport, scheme);
        const note = page.locator('[data-testid="lsp-network"]');
        expect(await note.getAttribute('data-network')).toBe('unavailable');
        expect(await note.textContent()).toBe(
          'This workspace is not trusted, yet this task host cannot take its language server off the network: the server can reach whatever the task host can.',
        );
        await settled(page);
        await screenshot(page, `trust-network-docker-${viewport}-${scheme}`);
        await page.context().close();
      }, 240_000);
    }
  }

  it("desktop light: Local Docker with bubblewrap under Kandev's seccomp profile, untrusted: the details say the server runs without network", async () => {
    const page = await detailsOf(sandboxedDockerSession, 'desktop', 'light');
    const note = page.locator('[data-testid="lsp-network"]');
    expect(await note.getAttribute('data-network')).toBe('off');
    expect(await note.textContent()).toBe('This workspace is not trusted: its language server runs without network access.');
    await settled(page);
    await screenshot(page, 'trust-network-docker-sandboxed-desktop-light');
    await page.context().close();
  }, 240_000);

  it.runIf(prerequisite(existsSync('/usr/bin/bwrap'), 'bubblewrap (Debian package bubblewrap)'))(
    'desktop light: Local PC with bubblewrap, untrusted: the details say the server runs without network',
    async () => {
      const page = await detailsOf(localSession, 'desktop', 'light');
      const note = page.locator('[data-testid="lsp-network"]');
      expect(await note.getAttribute('data-network')).toBe('off');
      expect(await note.textContent()).toBe('This workspace is not trusted: its language server runs without network access.');
      await settled(page);
      await screenshot(page, 'trust-network-local-desktop-light');
      await page.context().close();
    },
    240_000,
  );
});
