import { describe, expect, it } from 'vitest';
import { readConfig } from './config.js';

describe('agentctl configuration', () => {
  it('reads the AGENTCTL_* variables of docs/internals.md, with defaults', () => {
    expect(readConfig({ AGENTCTL_TOKEN: 't', AGENTCTL_WORKSPACE: '/w/./x', AGENTCTL_REPOS: '["a","b/c"]' })).toEqual({
      ok: true,
      value: { token: 't', workspacePath: '/w/x', repoSubpaths: ['a', 'b/c'], host: '127.0.0.1', port: 0 },
    });
  });

  it('refuses a missing token, a relative workspace, bad repos or port, without echoing the token', () => {
    expect(readConfig({ AGENTCTL_WORKSPACE: '/w' }).ok).toBe(false);
    expect(readConfig({ AGENTCTL_TOKEN: 't', AGENTCTL_WORKSPACE: 'w' }).ok).toBe(false);
    expect(readConfig({ AGENTCTL_TOKEN: 't', AGENTCTL_WORKSPACE: '/w', AGENTCTL_REPOS: '["../x"]' }).ok).toBe(false);
    expect(readConfig({ AGENTCTL_TOKEN: 't', AGENTCTL_WORKSPACE: '/w', AGENTCTL_REPOS: '{}' }).ok).toBe(false);
    const bad = readConfig({ AGENTCTL_TOKEN: 'sekret', AGENTCTL_WORKSPACE: '/w', AGENTCTL_PORT: '99999' });
    expect(bad.ok).toBe(false);
    expect(JSON.stringify(bad)).not.toContain('sekret');
  });
});
