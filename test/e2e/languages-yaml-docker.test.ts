import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LaunchedBrowser } from '../support/browser.js';
import { ensureBuilt, repoRoot } from '../support/build.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { markers, openFile, putSettings, waitForLspState, witnessLspSockets, type LspSocketWitness } from '../support/page.js';
import { openTaskEditor } from '../support/fakeEditor.js';
import { startStack, type RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

/**
 * One session, two configuration languages at once: a CI workflow checked by yaml-language-server
 * against a local schema named in the user's settings, and a Dockerfile checked by docker-langserver.
 * Both servers are installed by agentctl from npm into the task's HOME on first use (auto-install
 * on), each gets its own connection, and the markers of both stay on their models.
 */
describe.runIf(run)('YAML and Dockerfile in one session in Chromium', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let sessionId: string;
  let work: string;
  let sockets: LspSocketWitness;
  /** Where agentctl's npm install puts a server's launcher: the task HOME's managed root. */
  const launcher = (dir: string, name: string) => join(work, 'home', '.kandev', 'lsp-servers', dir, 'node_modules', '.bin', name);
  /** The install frames the backend sent for `language`, in order. */
  const installFrames = (language: string) =>
    sockets.received
      .map(({ frame }) => JSON.parse(frame) as { status?: string; language?: string })
      .filter((f) => (f.status === 'installing' || f.status === 'installed' || f.status === 'install_failed') && f.language === language)
      .map((f) => f.status);

  beforeAll(async () => {
    ensureBuilt('web-test');
    work = mkdtempSync(join(tmpdir(), 'kandev-e2e-langs-'));
    const workspace = join(work, 'workspace');
    cpSync(join(repoRoot, 'test/fixtures/config-workspace'), workspace, { recursive: true });
    stack = await startStack();
    const schema = pathToFileURL(join(workspace, 'schemas', 'workflow.schema.json')).href;
    await putSettings(stack, {
      lsp_auto_start_languages: ['typescript', 'python', 'go', 'yaml', 'dockerfile'],
      lsp_auto_install_languages: ['yaml', 'dockerfile'],
      lsp_server_configs: { yaml: { yaml: { schemas: { [schema]: '.github/workflows/*.yml' } } } },
    });
    // npm's download cache is shared to spare the registry; the servers land in the task HOME.
    const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
    ({ sessionId, browser, page } = await openTaskEditor(stack, { title: 'Config', workspace, env: { HOME: join(work, 'home'), npm_config_cache: npmCache } }));
    // The LSP sockets open with the first file: witnessed from here on.
    sockets = await witnessLspSockets(page);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  const messages = async (path: string) => (await markers(page, sessionId, path)).map((m) => m.message).join('\n');

  it('installs yaml-language-server and shows the schema error of the workflow as a marker', async () => {
    expect(existsSync(launcher('yaml', 'yaml-language-server'))).toBe(false);
    await openFile(page, '.github/workflows/ci.yml');
    await waitForLspState(page, 'yaml', 'ready', 240_000);
    // Installed on the way by agentctl, into the task HOME: the page was told, the launcher is there.
    expect(installFrames('yaml')).toContain('installing');
    expect(installFrames('yaml').at(-1)).toBe('installed');
    expect(existsSync(launcher('yaml', 'yaml-language-server'))).toBe(true);
    await expect.poll(() => messages('.github/workflows/ci.yml'), { timeout: 60_000 }).toMatch(/Incorrect type\. Expected "string"/);
  });

  it('installs docker-langserver and shows the unknown instruction, while the YAML markers stay', async () => {
    expect(existsSync(launcher('dockerfile', 'docker-langserver'))).toBe(false);
    await openFile(page, 'Dockerfile');
    await waitForLspState(page, 'dockerfile', 'ready', 240_000);
    expect(installFrames('dockerfile')).toContain('installing');
    expect(installFrames('dockerfile').at(-1)).toBe('installed');
    expect(existsSync(launcher('dockerfile', 'docker-langserver'))).toBe(true);
    await expect.poll(() => messages('Dockerfile'), { timeout: 60_000 }).toMatch(/Unknown instruction: RUNN/i);
    await page.locator('.squiggly-error').first().waitFor();
    // Each model carries only its own server's markers; neither connection touched the other's.
    expect(await messages('.github/workflows/ci.yml')).toMatch(/Incorrect type\. Expected "string"/);
    expect(await messages('.github/workflows/ci.yml')).not.toMatch(/RUNN/);
    expect(await messages('Dockerfile')).not.toMatch(/Incorrect type/);
    expect(await page.locator('[data-testid="editor"][data-path="Dockerfile"]').count()).toBe(1);
  });
});
