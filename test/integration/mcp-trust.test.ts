/**
 * An agent on an untrusted workspace gets the same guards and network-off sandbox as a person's
 * tab (docs/workspace-trust.md): the witness of trust-network-shell.test.ts, through MCP. The
 * user's settings name a loopback listener as bash-language-server's explainshell endpoint; a hover
 * on `ls` makes the server ask it before anything else it answers with.
 *
 * - Untrusted (bubblewrap's network namespace): the agent's hover answers from the man page, and the
 *   listener was never contacted.
 * - Trusted: the same hover asks the listener and shows its explanation (the witness works).
 *
 * Each hover comes after `diagnostics` reported the script fresh with shellcheck's first finding:
 * the server is initialized and has read its configuration, endpoint and all.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { prerequisite } from '../support/env.js';
import { EXPLAINED, explainshellSettings, startExplainshellListener, type ExplainshellListener } from '../support/explainshell.js';
import { writeFiles } from '../support/files.js';
import { taskPath } from '../support/stack.js';
import { startLeaseBackend, startSession, type LeaseBackend } from './lease-support.js';
import { agentToken, call, connect } from './mcp-support.js';

const has = (command: string, args: string[]) => {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const run =
  prerequisite(existsSync('/usr/bin/bwrap'), 'bubblewrap (apt-get install bubblewrap)') &&
  prerequisite(has('shellcheck', ['--version']), 'shellcheck (apt-get install shellcheck)') &&
  prerequisite(has('man', ['--version']), 'man (apt-get install man-db)') &&
  prerequisite(has('npm', ['--version']), 'npm');

const SCRIPT = 'scripts/list.sh';
const SCRIPT_TEXT = ['#!/usr/bin/env bash', 'ls -la $1', ''].join('\n');

describe.runIf(run)("mcp: an agent's server on an untrusted workspace runs without network, as a person's", () => {
  let listener: ExplainshellListener;
  let stack: LeaseBackend;
  let work: string;
  let env: Record<string, string>;
  const clients: Client[] = [];

  beforeAll(async () => {
    listener = await startExplainshellListener();
    work = mkdtempSync(join(tmpdir(), 'kandev-mcp-trust-'));
    stack = await startLeaseBackend();
    await stack.api('PUT', '/api/settings', explainshellSettings(listener));
    // One task HOME for both tasks: bash-language-server is installed once; npm's download cache is shared.
    const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
    env = { PATH: taskPath(), HOME: join(work, 'home'), npm_config_cache: npmCache };
  }, 120_000);

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await stack?.close();
    await listener?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** An agent on a task with its own copy of the script, trusted or not, once the server has settled on it. */
  async function agentOn(trusted: boolean): Promise<Client> {
    const workspace = writeFiles(mkdtempSync(join(work, 'workspace-')), { [SCRIPT]: SCRIPT_TEXT });
    const task = await stack.api('POST', '/api/tasks', {
      title: trusted ? 'trusted shell' : 'untrusted shell',
      executor: 'local_pc',
      repositories: [{ path: workspace }],
      env,
    });
    // As the person's test sets it: the task's trust switch, before the session starts.
    if (trusted) await stack.api('PATCH', `/api/tasks/${task.json.id}`, { trustWorkspaceTools: true });
    expect((await stack.api('GET', `/api/tasks/${task.json.id}`)).json.trustWorkspaceTools === true).toBe(trusted);
    const sessionId = await startSession(stack, task.json.id);
    const { url, token } = await agentToken(stack, sessionId);
    const client = await connect(url, token);
    clients.push(client);
    // shellcheck's SC2086 is an info: asked for down to that severity.
    const checked = await call(client, 'diagnostics', { paths: [SCRIPT], severity: 'info' });
    expect(checked.text).toMatch(/^scripts\/list\.sh: fresh/);
    expect(checked.text).toMatch(/Double quote to prevent globbing and word splitting/);
    return client;
  }

  it('untrusted: the hover on `ls` answers from the man page and the listener was never contacted', async () => {
    const client = await agentOn(false);
    const hover = await call(client, 'hover', { path: SCRIPT, line: 2, column: 2 });
    expect(hover.isError).toBeFalsy();
    expect(hover.text).not.toContain(EXPLAINED);
    expect(hover.text).toMatch(/list directory contents/i);
    expect(listener.requests).toEqual([]);
  }, 420_000);

  it('trusted: the same hover asks the listener to explain the command, and shows its answer (the witness works)', async () => {
    const before = listener.requests.length;
    const client = await agentOn(true);
    const hover = await call(client, 'hover', { path: SCRIPT, line: 2, column: 2 });
    expect(listener.requests.slice(before)).toEqual(['/explain?cmd=ls']);
    expect(hover.text).toContain(EXPLAINED);
  }, 420_000);
});
