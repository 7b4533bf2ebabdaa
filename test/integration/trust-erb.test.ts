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
 * Workspace trust, ERB (docs/workspace-trust.md): the real herb-language-server (installed by
 * agentctl into the task HOME, auto-install on) imports the repository's own linter rules
 * (`.herb/rules/*.mjs`) when it first lints a view: repository code. The hostile rule records that
 * it was imported. Untrusted, the broker forces the linter off in its configuration answers, so
 * the parser's finding is reported and the rule never runs; trusted, the linter imports it.
 */
const view = ['<article>', '  <p>By <%= @book.author %>', '</article>', ''].join('\n');
const ws = hostileWorkspace('erb', {
  'show.html.erb': view,
  '.herb/rules/recording-rule.mjs': [
    "import { appendFileSync } from 'node:fs';",
    "appendFileSync('@MARKER@', 'herb rule ran\\n');",
    'export default class RecordingRule {',
    "  get name() { return 'recording-rule'; }",
    '  check() { return []; }',
    '}',
    '',
  ].join('\n'),
});
const source = { path: 'show.html.erb', languageId: 'erb', text: view };
const finding = 'has its closing tag omitted';

let stack: RunningStack;
let task: Task;
let sessionId: string;
let home: string;

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'kandev-trust-erb-home-'));
  stack = await startStack({ KANDEV_LOG_STDERR: '0' });
  await putSettings(stack, { lsp_auto_install_languages: ['erb'] });
  // npm's download cache is shared to spare the registry; the server lands in the task HOME.
  const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
  task = await stack.createTask({ title: 'hostile erb', workspace: ws.dir, env: { HOME: home, npm_config_cache: npmCache } });
  sessionId = (await stack.startSession(task.id)).id;
}, 60_000);

afterAll(async () => {
  await stack?.stop();
  rmSync(home, { recursive: true, force: true });
});

describe('workspace trust: ERB', () => {
  it("untrusted: the parser's finding is reported, and the repository's linter rule never runs", async () => {
    const { client, uri } = await openFile(stack, sessionId, 'erb', source);
    const diagnostics = await diagnosticsOf(client, uri);
    expect(JSON.stringify(diagnostics.params.diagnostics)).toContain(finding);
    // The diagnostics are published after the linter ran (parse, then lint, then one publish).
    expect(ws.runs()).toEqual([]);
    await client.leave();
  }, 400_000);

  it('trusted: the linter imports the repository rule (the marker proves this test can fail)', async () => {
    await setTrust(stack, task.id, true);
    const { client, uri } = await openFile(stack, sessionId, 'erb', source);
    const diagnostics = await diagnosticsOf(client, uri);
    expect(JSON.stringify(diagnostics.params.diagnostics)).toContain(finding);
    expect(ws.runs()).toContain('herb rule ran');
    await client.leave();
  }, 200_000);
});
