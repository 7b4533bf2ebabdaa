import { networkSandbox } from '../trust/networkSandbox.js';
import { CloseCode, MAX_INSTALL_ERROR_BYTES } from '@kandev/protocol';
import { EventEmitter } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createLogger, type LogEvent, type Logger } from '../base/log.js';
import type { ResolveFs } from '../resolve/resolveServer.js';
import { createAgentctlServer, type AgentctlServer } from '../server.js';
import { LspTestClient } from '../testing/agentctlProcess.js';
import { installScriptedServer } from '../testing/scriptedServer.js';
import type { InstallLanguageServer, InstallOutcome, InstallRequest } from '../install/seam.js';
import { LspStream } from './lspStream.js';

const temp = mkdtempSync(join(tmpdir(), 'agentctl-stream-'));
const workspace = join(temp, 'ws');
const installedBin = join(temp, 'installed');
const token = 'unit-token';
let shim: string;

beforeAll(() => {
  mkdirSync(workspace);
  shim = installScriptedServer(installedBin, 'pyright-langserver');
});
afterAll(() => rmSync(temp, { recursive: true, force: true }));

interface Harness {
  server: AgentctlServer;
  port: number;
  events: LogEvent[];
  open(query: string): LspTestClient;
}

let current: Harness | undefined;
afterEach(async () => {
  await current?.server.shutdown();
  current = undefined;
});

/** A logger whose lines land in `events`, by event name, as they are logged. */
function eventsLogger(events: LogEvent[]): Logger {
  return createLogger({ targets: [{ lines: (line) => events.push((JSON.parse(line) as { event: LogEvent }).event) }] });
}

async function start(installer: InstallLanguageServer | undefined, resolveFs?: ResolveFs): Promise<Harness> {
  const events: LogEvent[] = [];
  const logger: Logger = eventsLogger(events);
  const server = await createAgentctlServer({
    token,
    workspacePath: workspace,
    repoSubpaths: [],
    // A task env with no language server anywhere: every language is "missing".
    env: { PATH: '/nonexistent', HOME: join(temp, 'home') },
    platform: process.platform,
    installer,
    logger,
    timings: { wsWriteDeadlineMs: 5_000, stdinCutoffMs: 30_000, reapGraceMs: 500, exitFlushMs: 200, exitReadGraceMs: 200 },
    resolveFs,
  });
  const port = await server.listen('127.0.0.1', 0);
  current = { server, port, events, open: (q) => new LspTestClient(`ws://127.0.0.1:${port}/api/v1/lsp/stream?${q}`, token) };
  return current;
}

function recordingInstaller(behaviour: (req: InstallRequest) => Promise<InstallOutcome>): InstallLanguageServer & { calls: InstallRequest[] } {
  const calls: InstallRequest[] = [];
  const fn = (req: InstallRequest) => {
    calls.push(req);
    return behaviour(req);
  };
  return Object.assign(fn, { calls });
}

describe('task-host LSP stream around the installer', () => {
  it('sends installing, then installed, then ready, and bridges the installed server', async () => {
    const installer = recordingInstaller(async (req) => {
      req.onOutput('added 1 package\n');
      return { ok: true, value: shim };
    });
    const h = await start(installer);
    const client = h.open('language=python&autoInstall=true');
    await client.status('ready');
    expect(client.frames.map((f) => f.status)).toEqual(['installing', 'installed', 'ready']);
    // Untrusted by default: the ready frame says which task-host tools to pin (none on this PATH).
    expect(client.frames[2]).toEqual({
      status: 'ready',
      language: 'python',
      workspacePath: workspace,
      workspaceUri: `file://${workspace}`,
      repoSubpaths: [],
      // Untrusted: the server runs off the network where this host can (bubblewrap), and says so.
      trustedTools: { network: networkSandbox(process.platform).network },
      stream: expect.any(Number),
    });
    const init = await client.request('initialize', { processId: null, rootUri: null, capabilities: {} });
    expect(init.result).toMatchObject({ serverInfo: { name: 'scripted' } });
    // The installer got the task env without AGENTCTL_* and this host's platform.
    expect(installer.calls[0]).toMatchObject({ language: 'python', platform: process.platform, env: { PATH: '/nonexistent' } });
    client.close();
    await client.closed;
  });

  it("streams the installer's latest output line as installing progress while it runs", async () => {
    const installer = recordingInstaller(async (req) => {
      req.onOutput('resolving packages\n');
      req.onOutput('\u001b[2Kfetching pyright@1 (12 MB)\n');
      // Long enough for a throttled progress frame to go out before the install ends.
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      return { ok: true, value: shim };
    });
    const h = await start(installer);
    const client = h.open('language=python&autoInstall=true');
    await client.status('ready');
    const progress = client.frames.filter((f) => f.status === 'installing' && 'detail' in f);
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(String(progress[progress.length - 1]?.detail)).toContain('fetching pyright@1');
    expect(client.frames.map((f) => f.status).slice(-2)).toEqual(['installed', 'ready']);
    client.close();
    await client.closed;
  });

  it('S12 reports a failed install with the installer detail, bounded, then closes 4003 without reason', async () => {
    const h = await start(
      recordingInstaller(async () => ({ ok: false, error: { code: 'failed', message: `${'x'.repeat(MAX_INSTALL_ERROR_BYTES)}npm ERR! code E404` } })),
    );
    const client = h.open('language=python&autoInstall=true');
    const failed = await client.status('install_failed');
    expect(await client.closed).toEqual({ code: CloseCode.InstallFailed, reason: '' });
    const error = String(failed.error);
    expect(Buffer.byteLength(error)).toBeLessThanOrEqual(MAX_INSTALL_ERROR_BYTES);
    expect(error).toMatch(/npm ERR! code E404$/);
    expect(client.frames.map((f) => f.status)).toEqual(['installing', 'install_failed']);
  });

  it('turns an installer that throws into install_failed with its output tail and message', async () => {
    const h = await start(
      recordingInstaller(async (req) => {
        req.onOutput('go: downloading golang.org/x/tools\n');
        throw new Error('go exited with code 1');
      }),
    );
    const client = h.open('language=go&autoInstall=true');
    const failed = await client.status('install_failed');
    expect(failed.error).toBe('go: downloading golang.org/x/tools\ngo exited with code 1');
    expect((await client.closed).code).toBe(CloseCode.InstallFailed);
  });

  it('closes 4007 when the installer reports no installer for this host', async () => {
    const h = await start(recordingInstaller(async () => ({ ok: false, error: { code: 'no_installer', guidance: 'install it by hand' } })));
    const client = h.open('language=go&autoInstall=true');
    expect(await client.closed).toEqual({ code: CloseCode.NoInstaller, reason: '' });
    expect(client.frames.map((f) => f.status)).toEqual(['installing']);
  });

  it('closes 4001 without installing when auto-install is off', async () => {
    const installer = recordingInstaller(async () => ({ ok: true, value: shim }));
    const h = await start(installer);
    const client = h.open('language=typescript&autoInstall=false');
    expect(await client.closed).toEqual({ code: CloseCode.BinaryMissingInstallable, reason: '' });
    expect(installer.calls).toHaveLength(0);
    expect(client.frames).toEqual([]);
  });

  it('S03 closes 4007 for a missing Kotlin server without attempting installation, even with autoInstall=true', async () => {
    const installer = recordingInstaller(async () => ({ ok: true, value: shim }));
    const h = await start(installer);
    const client = h.open('language=kotlin&autoInstall=true');
    expect(await client.closed).toEqual({ code: CloseCode.NoInstaller, reason: '' });
    expect(installer.calls).toHaveLength(0);
    expect(client.frames).toEqual([]);
  });

  it('closes 4007 when this agentctl has no installer at all', async () => {
    const h = await start(undefined);
    const client = h.open('language=go&autoInstall=true');
    expect(await client.closed).toEqual({ code: CloseCode.NoInstaller, reason: '' });
  });

  it('closes 4002 for an unknown language or a bad autoInstall value, and logs why', async () => {
    const h = await start(undefined);
    expect(await h.open('language=cobol').closed).toEqual({ code: CloseCode.Unavailable, reason: '' });
    expect(await h.open('language=go&autoInstall=yes').closed).toEqual({ code: CloseCode.Unavailable, reason: '' });
    expect(h.events.filter((e) => e === 'stream_refused')).toHaveLength(2);
  });

  it('does not install when the installing frame cannot be delivered, and drops the socket', async () => {
    const installer = recordingInstaller(async () => ({ ok: true, value: shim }));
    // A socket that accepts nothing: every write fails, as on a connection that just broke.
    let terminated = false;
    const brokenSocket = Object.assign(new EventEmitter(), {
      readyState: WebSocket.OPEN,
      send: (_data: string, _options: unknown, cb: (err?: Error) => void) => cb(new Error('EPIPE')),
      close: () => {},
      terminate: () => {
        terminated = true;
      },
    });
    const events: LogEvent[] = [];
    const stream = new LspStream(
      brokenSocket as unknown as WebSocket,
      { ok: true, value: { language: 'python', autoInstall: true, trustWorkspaceTools: false } },
      {
        workspace: { workspacePath: workspace, workspaceUri: `file://${workspace}`, repoSubpaths: [] },
        workspaceReal: workspace,
        env: { PATH: '/nonexistent' },
        platform: process.platform,
        installer,
        logger: eventsLogger(events),
        timings: { wsWriteDeadlineMs: 5_000, stdinCutoffMs: 30_000, reapGraceMs: 500, exitFlushMs: 200, exitReadGraceMs: 200 },
      },
      1,
    );
    await stream.start();
    expect(installer.calls).toHaveLength(0);
    expect(terminated).toBe(true);
    expect(events).toContain('stream_write_failed');
  });

  it('S56 agentctl teardown cancels a running install, drains it and closes 1001 without reason', async () => {
    let drained = false;
    const installer = recordingInstaller(
      (req) =>
        new Promise<InstallOutcome>((resolve) => {
          req.signal.addEventListener('abort', () => {
            // A real installer kills its npm/go tree here before settling.
            setTimeout(() => {
              drained = true;
              resolve({ ok: false, error: { code: 'cancelled' } });
            }, 20);
          });
        }),
    );
    const h = await start(installer);
    const client = h.open('language=python&autoInstall=true');
    await client.status('installing');
    while (installer.calls.length === 0) await new Promise((r) => setTimeout(r, 5));
    await h.server.shutdown();
    current = undefined;
    expect(drained).toBe(true);
    expect(installer.calls[0]?.signal.aborted).toBe(true);
    expect(await client.closed).toEqual({ code: CloseCode.GoingAway, reason: '' });
    expect(client.frames.map((f) => f.status)).toEqual(['installing']);
    expect(h.events).toContain('install_cancelled');
  });
});

describe('how a bridged stream ends', () => {
  const installed = () => recordingInstaller(async () => ({ ok: true, value: shim }));

  it('release-stream (after exit): the server gets its moment to exit, the tree is reaped, then reaped{clean} and close 1000', async () => {
    const h = await start(installed());
    const client = h.open('language=python&autoInstall=true');
    await client.status('ready');
    await client.request('initialize', { processId: null, rootUri: null, capabilities: {} });
    client.notify('exit', null);
    client.ws.send(JSON.stringify({ control: 'release-stream' }));
    expect(await client.status('reaped')).toEqual({ status: 'reaped', clean: true });
    expect(await client.closed).toEqual({ code: CloseCode.Normal, reason: '' });
    // The reap finished before the report: its log line is already there.
    expect(h.events).toContain('stream_release');
    expect(h.events.indexOf('reap_done')).toBeGreaterThan(h.events.indexOf('stream_release'));
  });

  it('a server that exits by itself: server_exited with its stderr tail, then 4006 once its tree is reaped', async () => {
    const h = await start(installed());
    const client = h.open('language=python&autoInstall=true');
    await client.status('ready');
    await client.request('test/stderr', { text: 'panic: the last words' });
    client.notify('test/exit', { code: 3 });
    const exited = await client.status('server_exited');
    expect(exited).toMatchObject({ status: 'server_exited', language: 'python' });
    expect(String(exited.stderrTail)).toContain('panic: the last words');
    expect(await client.closed).toEqual({ code: CloseCode.ServerExited, reason: '' });
    expect(h.events).toContain('reap_done');
  });
});
