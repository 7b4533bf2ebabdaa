import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '@kandev/protocol';
import { putSettings } from '../support/page.js';
import { startStack, type RunningStack } from '../support/stack.js';
import { diagnosticsOf, hostileWorkspace, openFile, setTrust } from './trust-support.js';

/**
 * Workspace trust, Svelte (docs/workspace-trust.md): the real svelte-language-server (installed by
 * agentctl into the task HOME, auto-install on) imports the repository's `svelte.config.js` to
 * learn its preprocessors: repository code. The hostile config records that it ran. Untrusted, the
 * broker forces the server's own `isTrusted: false` over what the browser sent, so it checks the
 * component with the packages it ships and never loads the config; trusted, it loads it.
 */
const component = ['<script lang="ts">', '  let count: number = 0;', '  const label: string = count;', '</script>', '', '<p>{label}</p>', ''].join('\n');
const ws = hostileWorkspace('svelte', {
  'Counter.svelte': component,
  'svelte.config.js': "import { appendFileSync } from 'node:fs';\nappendFileSync('@MARKER@', 'svelte.config ran\\n');\nexport default {};\n",
});
const source = { path: 'Counter.svelte', languageId: 'svelte', text: component };
const finding = "Type 'number' is not assignable to type 'string'.";

let stack: RunningStack;
let task: Task;
let sessionId: string;
let home: string;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'kandev-trust-svelte-home-'));
  stack = await startStack({ KANDEV_LOG_STDERR: '0' });
  await putSettings(stack, { lsp_auto_install_languages: ['svelte'] });
  // npm's download cache is shared to spare the registry; the server lands in the task HOME.
  const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
  task = await stack.createTask({ title: 'hostile svelte', workspace: ws.dir, env: { HOME: home, npm_config_cache: npmCache } });
  sessionId = (await stack.startSession(task.id)).id;
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(home, { recursive: true, force: true });
});

describe('workspace trust: Svelte', () => {
  it('untrusted: the component is checked, and the config never runs though the browser asked for trust', async () => {
    const { client, uri } = await openFile(stack, sessionId, 'svelte', source, { isTrusted: true });
    const diagnostics = await diagnosticsOf(client, uri);
    expect(JSON.stringify(diagnostics.params.diagnostics)).toContain(finding);
    // The diagnostics come after the config would have been loaded (preprocessing precedes the check).
    expect(ws.runs()).toEqual([]);
    await client.leave();
  }, 400_000);

  it('trusted: the real server loads the config (the marker proves this test can fail)', async () => {
    await setTrust(stack, task.id, true);
    const { client, uri } = await openFile(stack, sessionId, 'svelte', source);
    const diagnostics = await diagnosticsOf(client, uri);
    expect(JSON.stringify(diagnostics.params.diagnostics)).toContain(finding);
    expect(ws.runs()).toContain('svelte.config ran');
    await client.leave();
  }, 200_000);
});
