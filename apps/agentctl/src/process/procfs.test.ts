import { describe, expect, it } from 'vitest';
import { descendantsOf, parseStat } from './procfs.js';
import { serverEnv, TREE_MARKER_VARIABLE, withoutAgentctlVariables } from './taskEnv.js';

describe('/proc parsing', () => {
  it('parses stat lines whose command name has spaces and parentheses', () => {
    expect(parseStat('4242 (my (weird) name) S 17 4242 4242 0 -1')).toEqual({ pid: 4242, ppid: 17, state: 'S' });
    expect(parseStat('garbage')).toBeUndefined();
  });

  it('walks descendants breadth first and survives cycles', () => {
    const entries = [
      { pid: 10, ppid: 1, state: 'S' },
      { pid: 11, ppid: 10, state: 'S' },
      { pid: 12, ppid: 11, state: 'S' },
      { pid: 13, ppid: 10, state: 'S' },
      { pid: 20, ppid: 1, state: 'S' },
      { pid: 30, ppid: 31, state: 'S' },
      { pid: 31, ppid: 30, state: 'S' },
    ];
    expect(descendantsOf(10, entries)).toEqual([11, 13, 12]);
    expect(descendantsOf(30, entries)).toEqual([31]);
  });
});

describe('server environment', () => {
  it('drops every AGENTCTL_* variable (the token above all) and adds the tree marker', () => {
    const env = serverEnv({ AGENTCTL_TOKEN: 'secret', AGENTCTL_WORKSPACE: '/w', agentctl_port: '1', PATH: '/bin', HOME: '/h' }, 'm-1');
    expect(env).toEqual({ PATH: '/bin', HOME: '/h', [TREE_MARKER_VARIABLE]: 'm-1' });
    expect(withoutAgentctlVariables({ AGENTCTL_X: 'y', GOBIN: '/g', UNSET: undefined })).toEqual({ GOBIN: '/g' });
  });
});
