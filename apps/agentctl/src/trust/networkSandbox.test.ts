import { describe, expect, it } from 'vitest';
import { findNetworkSandbox, type SandboxProbe } from './networkSandbox.js';

const probe = (over: Partial<SandboxProbe> = {}): SandboxProbe => ({
  platform: 'linux',
  exists: (p) => p === '/usr/bin/bwrap',
  runs: () => true,
  ...over,
});

describe('the network sandbox of untrusted servers', () => {
  it('on Linux with a working bubblewrap: the server runs in a network namespace of its own, its command line unchanged after --', () => {
    const sandbox = findNetworkSandbox(probe());
    expect(sandbox.network).toBe('off');
    if (sandbox.network !== 'off') return;
    expect(sandbox.wrap({ command: '/opt/yaml-language-server', args: ['--stdio'], windowsVerbatimArguments: false })).toEqual({
      command: '/usr/bin/bwrap',
      args: ['--unshare-net', '--dev-bind', '/', '/', '--die-with-parent', '--', '/opt/yaml-language-server', '--stdio'],
      windowsVerbatimArguments: false,
    });
  });

  it('says why it is unavailable: not Linux, bubblewrap missing (fixed paths only), or namespaces refused by the host', () => {
    expect(findNetworkSandbox(probe({ platform: 'darwin' }))).toEqual({ network: 'unavailable', why: 'not_linux' });
    expect(findNetworkSandbox(probe({ exists: () => false }))).toEqual({ network: 'unavailable', why: 'bwrap_missing' });
    expect(findNetworkSandbox(probe({ runs: () => false }))).toEqual({ network: 'unavailable', why: 'namespaces_refused' });
  });

  it('checks that the sandbox really starts, with the arguments the servers will get', () => {
    const ran: string[][] = [];
    findNetworkSandbox(probe({ runs: (bwrap, args) => (ran.push([bwrap, ...args]), true) }));
    expect(ran).toEqual([['/usr/bin/bwrap', '--unshare-net', '--dev-bind', '/', '/', '--die-with-parent', '--', '/bin/true']]);
  });

  it('where the plain network namespace is refused (a container root without CAP_SYS_ADMIN), a user namespace first, and servers get the same', () => {
    const ran: string[][] = [];
    const sandbox = findNetworkSandbox(probe({ runs: (_bwrap, args) => (ran.push(args), args[0] === '--unshare-user') }));
    expect(ran).toEqual([
      ['--unshare-net', '--dev-bind', '/', '/', '--die-with-parent', '--', '/bin/true'],
      ['--unshare-user', '--unshare-net', '--dev-bind', '/', '/', '--die-with-parent', '--', '/bin/true'],
    ]);
    expect(sandbox.network).toBe('off');
    if (sandbox.network !== 'off') return;
    expect(sandbox.wrap({ command: '/opt/yaml-language-server', args: ['--stdio'], windowsVerbatimArguments: false }).args).toEqual([
      '--unshare-user',
      '--unshare-net',
      '--dev-bind',
      '/',
      '/',
      '--die-with-parent',
      '--',
      '/opt/yaml-language-server',
      '--stdio',
    ]);
  });
});
