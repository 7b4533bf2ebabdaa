import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_INSTALL_ERROR_BYTES } from '@kandev/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findManagedBinary, installLanguageServer, InstallLock } from '../../apps/agentctl/src/install/index.js';
import { descendantsOf, listProcesses } from '../../apps/agentctl/src/process/processTable.js';
import { fakeGoplsBanner, writeFakeGoplsProxy } from '../fixtures/goproxy/proxy.js';
import { prerequisite } from '../support/env.js';

/**
 * A real `go install golang.org/x/tools/gopls@latest` against a local file GOPROXY that serves a
 * tiny stand-in gopls module (proxy.golang.org cannot be reached here). Go itself is Debian's.
 */
const goBinary = ['/usr/bin/go', '/usr/local/go/bin/go'].find((p) => existsSync(p));
const hasGo = prerequisite(goBinary !== undefined, 'Go (Debian package golang-go)');

let work: string;
let proxyUrl: string;
let slowProxyUrl: string;
let toolsDir: string;
let goLog: string;
beforeAll(() => {
  if (!hasGo) return;
  work = mkdtempSync(join(tmpdir(), 'kandev-go-install-'));
  proxyUrl = writeFakeGoplsProxy(join(work, 'proxy'), 'v0.0.1-kandev');
  slowProxyUrl = writeFakeGoplsProxy(join(work, 'slow-proxy'), 'v0.0.2-slow', { slowCompileFunctions: 4000 });
  // `go` exists for this task only through its PATH: a wrapper in a folder no other PATH has,
  // which logs each invocation, so the test sees that lookup used the task's PATH.
  toolsDir = join(work, 'task-tools');
  goLog = join(work, 'go-invocations.log');
  mkdirSync(toolsDir);
  writeFileSync(join(toolsDir, 'go'), `#!/bin/sh\necho "$*" >> '${goLog}'\nexec '${realpathSync(goBinary!)}' "$@"\n`);
  chmodSync(join(toolsDir, 'go'), 0o755);
});
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A task environment with its own HOME and Go settings; nothing Go-related comes from process.env. */
function taskEnv(name: string, extra: Record<string, string>): Record<string, string> {
  const home = join(work, name, 'home');
  mkdirSync(home, { recursive: true });
  return {
    HOME: home,
    PATH: `${toolsDir}:/bin`,
    GOPROXY: proxyUrl,
    GOSUMDB: 'off',
    // -modcacherw: Go's module cache is read-only by default, which would defeat test cleanup.
    GOFLAGS: '-mod=mod -modcacherw',
    ...extra,
  };
}

const invocations = () => (existsSync(goLog) ? readFileSync(goLog, 'utf8').trim().split('\n') : []);
const signal = () => new AbortController().signal;

describe.runIf(hasGo)('go install of gopls with the task Go environment', () => {
  it('S07: Go and GOBIN only in the task environment: lookup, go install and discovery all use them', async () => {
    expect(process.env.GOBIN).toBeUndefined();
    const gobin = join(work, 's07', 'task-gobin');
    const env = taskEnv('s07', { GOBIN: gobin });
    const before = invocations().length;

    const outcome = await installLanguageServer({ language: 'go', env, platform: 'linux', signal: signal() }, { lock: new InstallLock() });

    expect(outcome).toEqual({ ok: true, value: join(gobin, 'gopls') });
    expect(invocations().slice(before)).toEqual(['env -json GOBIN GOPATH', 'install golang.org/x/tools/gopls@latest']);
    expect(execFileSync(join(gobin, 'gopls'), { encoding: 'utf8' }).trim()).toBe(fakeGoplsBanner('v0.0.1-kandev'));
    expect(readdirSync(gobin)).toEqual(['gopls']); // published by rename; no staging left behind
    expect(existsSync(join(env.HOME!, 'go', 'bin'))).toBe(false); // GOBIN won over Go's default
    expect(findManagedBinary('go', env, 'linux')).toBe(join(gobin, 'gopls'));

    const again = await installLanguageServer({ language: 'go', env, platform: 'linux', signal: signal() });
    expect(again).toEqual(outcome);
    expect(invocations()).toHaveLength(before + 2); // reused: go not run again
  });

  it('S07: without GOBIN, gopls lands in the first GOPATH entry of the task and is discovered there', async () => {
    const first = join(work, 's07b', 'gopath-a');
    const env = taskEnv('s07b', { GOPATH: `${first}:${join(work, 's07b', 'gopath-b')}` });

    const outcome = await installLanguageServer({ language: 'go', env, platform: 'linux', signal: signal() });

    expect(outcome).toEqual({ ok: true, value: join(first, 'bin', 'gopls') });
    expect(findManagedBinary('go', env, 'linux')).toBe(join(first, 'bin', 'gopls'));
  });

  it("S12: a failing go install reports Go's own error, bounded, and publishes nothing", async () => {
    const gobin = join(work, 's12', 'task-gobin');
    const emptyProxy = join(work, 's12', 'empty-proxy');
    mkdirSync(emptyProxy, { recursive: true });
    const env = taskEnv('s12', { GOBIN: gobin, GOPROXY: `file://${emptyProxy}` });

    const outcome = await installLanguageServer({ language: 'go', env, platform: 'linux', signal: signal() });

    expect(outcome).toMatchObject({ ok: false, error: { code: 'failed' } });
    const error = (outcome as { error: { message: string } }).error.message;
    expect(error).toMatch(/^go install golang\.org\/x\/tools\/gopls@latest exited with code 1\. Check the task's Go setup \(GOPROXY/);
    expect(error).toMatch(/golang\.org\/x\/tools\/gopls/); // go's own line follows the summary
    expect(error.split('\n').length).toBeGreaterThan(1);
    expect(Buffer.byteLength(error)).toBeLessThanOrEqual(MAX_INSTALL_ERROR_BYTES);
    expect(readdirSync(gobin)).toEqual([]);
    expect(findManagedBinary('go', env, 'linux')).toBeUndefined();
  });

  it("S07: a task whose PATH has no go gets actionable guidance instead of the host's go", async () => {
    const env = { ...taskEnv('nogo', {}), PATH: '/nonexistent' };
    const outcome = await installLanguageServer({ language: 'go', env, platform: 'linux', signal: signal() });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'failed' } });
    expect((outcome as { error: { message: string } }).error.message).toMatch(/`go` was not found on the task's PATH/);
  });

  it('S56: tearing down while go compiles kills go and its compiler, removes staging and publishes nothing', async () => {
    const gobin = join(work, 's56', 'task-gobin');
    const env = taskEnv('s56', { GOBIN: gobin, GOPROXY: slowProxyUrl });
    let goPid = 0;
    const teardown = new AbortController();
    const install = installLanguageServer(
      { language: 'go', env, platform: 'linux', signal: teardown.signal },
      {
        spawn: (c, a, o) => {
          const child = spawn(c, a, o);
          if (a[0] === 'install') goPid = child.pid ?? 0;
          return child;
        },
        lock: new InstallLock(),
      },
    );
    // Mid-install: `go install` runs and its compiler is compiling the module (not just the
    // short `compile -V=full` version probe go runs first).
    const compiling = () => descendantsOf(goPid).filter((p) => /\/compile .*slow\.go/.test(commandOf(p.pid)));
    await vi.waitFor(() => expect(goPid > 0 && compiling().length > 0).toBe(true), { timeout: 60_000, interval: 20 });
    const tree = [goPid, ...descendantsOf(goPid).map((p) => p.pid)];

    teardown.abort();
    expect(await install).toEqual({ ok: false, error: { code: 'cancelled' } });

    const stillRunning = listProcesses().filter((p) => (tree.includes(p.pid) || p.pgid === goPid) && p.state !== 'Z' && p.state !== 'X');
    expect(stillRunning).toEqual([]);
    expect(readdirSync(gobin)).toEqual([]); // no gopls, no staging (and with it Go's scratch GOTMPDIR)
    expect(findManagedBinary('go', env, 'linux')).toBeUndefined();
  });
});

function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}
