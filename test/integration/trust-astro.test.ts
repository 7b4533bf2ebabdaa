import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { putSettings } from '../support/page.js';
import { startStack, type RunningStack } from '../support/stack.js';
import { diagnosticsOf, hostileWorkspace, openFile, setTrust, type HostileWorkspace } from './trust-support.js';

/**
 * Workspace trust, Astro (docs/workspace-trust.md): the real astro-ls (installed by agentctl into
 * the task HOME, auto-install on) formats with the prettier it resolves from the workspace's
 * node_modules first (and loads the @astrojs/vue and @astrojs/svelte editor modules from there),
 * with no option of its own to stop it: repository code. The hostile repository plants its own
 * `node_modules/prettier`, which records that it was loaded. Untrusted, the broker refuses
 * `initialize`, so nothing of the repository runs; trusted, a format request loads it.
 */
const component = ['---', 'const visitor: number = "Kandev";', '---', '', '<h1>{visitor}</h1>', ''].join('\n');
const source = { path: 'Greeting.astro', languageId: 'astro', text: component };
const finding = "Type 'string' is not assignable to type 'number'.";
const hostile = () =>
  hostileWorkspace('astro', {
    'Greeting.astro': component,
    'node_modules/prettier/package.json': JSON.stringify({ name: 'prettier', version: '3.9.9', main: 'index.js' }),
    'node_modules/prettier/index.js': "require('node:fs').appendFileSync('@MARKER@', 'workspace prettier loaded\\n');\nmodule.exports = {};\n",
  });

let stack: RunningStack;
let home: string;
let npmCache: string;

/** A session on its own task over `ws`, trusted or not. */
async function sessionOn(ws: HostileWorkspace, trusted: boolean): Promise<string> {
  const task = await stack.createTask({ title: 'hostile astro', workspace: ws.dir, env: { HOME: home, npm_config_cache: npmCache } });
  if (trusted) await setTrust(stack, task.id, true);
  return (await stack.startSession(task.id)).id;
}

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'kandev-trust-astro-home-'));
  stack = await startStack({ KANDEV_LOG_STDERR: '0' });
  await putSettings(stack, { lsp_auto_install_languages: ['astro'] });
  // npm's download cache is shared to spare the registry; the server lands in the task HOME.
  npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(home, { recursive: true, force: true });
});

describe('workspace trust: Astro', () => {
  it('untrusted: initialize is refused with the reason, though the browser asked to format, and nothing of the repository runs', async () => {
    const ws = hostile();
    const { client, uri, init } = await openFile(stack, await sessionOn(ws, false), 'astro', source);
    expect(init.error?.message).toMatch(/astro-ls loads prettier, its configs and the framework integrations from the repository's node_modules/);
    const formatted = await client.request('textDocument/formatting', { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
    expect(formatted.result).toBeUndefined();
    expect(ws.runs()).toEqual([]);
    await client.leave();
  }, 400_000);

  it("trusted: the real server checks the component and formats with the workspace's prettier (the marker proves the first test can fail)", async () => {
    const ws = hostile();
    const { client, uri, init } = await openFile(stack, await sessionOn(ws, true), 'astro', source);
    expect(init.result.capabilities.documentFormattingProvider).toBeTruthy();
    const diagnostics = await diagnosticsOf(client, uri);
    expect(JSON.stringify(diagnostics.params.diagnostics)).toContain(finding);
    await client.request('textDocument/formatting', { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
    expect(ws.runs()).toContain('workspace prettier loaded');
    await client.leave();
  }, 200_000);
});
