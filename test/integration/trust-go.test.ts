import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task } from '@kandev/protocol';
import { prerequisite } from '../support/env.js';
import { startStack, taskPath, type RunningStack } from '../support/stack.js';
import { diagnosticsOf, hostileWorkspace, hoverText, makeExecutable, openFile, recordingShim, serverEnvironments, setTrust } from './trust-support.js';

/**
 * Workspace trust, gopls (docs/workspace-trust.md). Two repository-controlled inputs:
 *
 * - a `go` program of the repository on the task PATH (here `bin/`, first on PATH): gopls runs `go`
 *   by name for every package load. Untrusted servers get a PATH without workspace entries.
 * - `go 1.99` in go.mod: Go 1.21+ with GOTOOLCHAIN=auto downloads that toolchain from GOPROXY
 *   and runs it. Untrusted gopls gets GOTOOLCHAIN=local. The GOPROXY here is a local server that
 *   records every request. Debian 12's go (1.19, what gopls runs here) predates toolchain
 *   switching, so the last check runs a go that can switch (1.21+, golang-1.22-go from
 *   bookworm-backports, see scripts/install-system-deps.sh) with each gopls's own environment.
 *   Without such a go that check is skipped locally and fails in CI, like any missing prerequisite.
 */
const mainGo = 'package main\n\n// Hello greets.\nfunc Hello() string { return "hi" }\n\nfunc main() {\n\tvar n int = "x"\n\t_ = n\n\t_ = Hello()\n}\n';
const ws = hostileWorkspace('go', {
  'go.mod': 'module example.com/hostile\n\ngo 1.99\n',
  'main.go': mainGo,
  'bin/go': recordingShim('/usr/bin/go', 'workspace go'),
});
makeExecutable(ws, 'bin/go');
const source = { path: 'main.go', languageId: 'go', text: mainGo };
let untrustedPid = 0;
const tag = `trust-go-${process.pid}`;
const goMinor = (go: string) => Number(/go1\.(\d+)/.exec(execFileSync(go, ['version'], { encoding: 'utf8' }))?.[1] ?? 0);
/** A go that downloads the toolchain go.mod asks for (1.21+): Debian's own, or a backports one beside it. */
const switchingGo = ['/usr/bin/go', ...Array.from({ length: 10 }, (_, i) => `/usr/lib/go-1.${30 - i}/bin/go`)].find(
  (go) => existsSync(go) && goMinor(go) >= 21,
);
const canSwitch = prerequisite(switchingGo !== undefined, 'a go that switches toolchains (Go 1.21+: golang-1.22-go from bookworm-backports)');
/** The environments the untrusted and the trusted gopls ran with (read from /proc by the tests below). */
const seenEnv: { untrusted?: Record<string, string>; trusted?: Record<string, string> } = {};

const proxyRequests: string[] = [];
let proxy: Server;
let stack: RunningStack;
let task: Task;
let sessionId: string;

beforeAll(async () => {
  proxy = createServer((req, res) => {
    proxyRequests.push(req.url ?? '');
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const home = mkdtempSync(join(tmpdir(), 'kandev-trust-go-home-'));
  stack = await startStack({ KANDEV_LOG_STDERR: '0' });
  const env = {
    PATH: [join(ws.dir, 'bin'), taskPath()].join(delimiter),
    HOME: home,
    GOPATH: join(home, 'go'),
    GOFLAGS: '-mod=mod',
    GOPROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    GOSUMDB: 'off',
    KANDEV_TRUST_TEST: tag,
  };
  task = await stack.createTask({ title: 'hostile go', workspace: ws.dir, env });
  sessionId = (await stack.startSession(task.id)).id;
});

afterAll(async () => {
  await stack?.stop();
  await new Promise((resolve) => proxy?.close(resolve));
});

const toolchainRequests = () => proxyRequests.filter((url) => url.includes('golang.org/toolchain'));

describe('workspace trust: gopls', () => {
  it('untrusted: gopls type-checks and hovers with the host go; the repository go never runs and no toolchain is fetched', async () => {
    const { client, uri } = await openFile(stack, sessionId, 'go', source);
    const diagnostics = await diagnosticsOf(client, uri);
    expect(diagnostics.params.diagnostics.map((d: { message: string }) => d.message).join('\n')).toContain('cannot use "x"');
    expect(await hoverText(client, uri, 8, 7)).toContain('func Hello() string');
    const servers = serverEnvironments('gopls', 'KANDEV_TRUST_TEST', tag);
    expect(servers).toHaveLength(1);
    untrustedPid = servers[0]!.pid;
    const env = servers[0]?.env;
    seenEnv.untrusted = env;
    expect(env?.GOTOOLCHAIN).toBe('local');
    expect(env?.PATH?.split(delimiter)).not.toContain(join(ws.dir, 'bin'));
    expect(ws.runs()).toEqual([]);
    expect(toolchainRequests()).toEqual([]);
    await client.leave();
  });

  it('trusted: the next gopls runs the repository go from the task PATH (the marker proves this test can fail)', async () => {
    await setTrust(stack, task.id, true);
    const { client, uri } = await openFile(stack, sessionId, 'go', source);
    await diagnosticsOf(client, uri);
    // The untrusted gopls may still be shutting down: the trusted one is the other process.
    const trusted = serverEnvironments('gopls', 'KANDEV_TRUST_TEST', tag).filter((s) => s.pid !== untrustedPid);
    expect(trusted).toHaveLength(1);
    expect(trusted[0]?.env.GOTOOLCHAIN).toBeUndefined();
    seenEnv.trusted = trusted[0]?.env;
    expect(ws.runs().length).toBeGreaterThan(0);
    expect(ws.runs().every((line) => line.startsWith('workspace go '))).toBe(true);
    await client.leave();
  });

  it.runIf(canSwitch)(
    "go.mod's go 1.99, loaded by a go that switches toolchains with each gopls's environment: trusted asks GOPROXY for it, untrusted never",
    () => {
      const load = (env: Record<string, string> | undefined) => {
        expect(env).toBeDefined();
        try {
          execFileSync(switchingGo as string, ['list', './...'], { cwd: ws.dir, env, stdio: 'pipe' });
        } catch {
          // go 1.99 exists nowhere: the load fails either way; what it asked GOPROXY is the witness.
        }
      };
      load(seenEnv.untrusted);
      expect(toolchainRequests()).toEqual([]);
      load(seenEnv.trusted);
      expect(toolchainRequests().length).toBeGreaterThan(0);
    },
  );
});
