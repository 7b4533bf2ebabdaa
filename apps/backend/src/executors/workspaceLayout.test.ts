import { describe, expect, it } from 'vitest';
import { taskHostEnvironment } from './taskEnvironment.js';
import { localWorkspaceLayout } from './workspaceLayout.js';

describe('localWorkspaceLayout', () => {
  it('uses a single repository as the workspace, with no subpaths', () => {
    expect(localWorkspaceLayout([{ path: '/home/u/app/' }])).toEqual({ ok: true, value: { workspacePath: '/home/u/app', repoSubpaths: [] } });
  });

  it('roots several repositories at their deepest common ancestor', () => {
    expect(localWorkspaceLayout([{ path: '/home/u/src/api' }, { path: '/home/u/src/web/app' }])).toEqual({
      ok: true,
      value: { workspacePath: '/home/u/src', repoSubpaths: ['api', 'web/app'] },
    });
  });

  it('does not confuse a shared name prefix with a shared folder', () => {
    expect(localWorkspaceLayout([{ path: '/home/u/app' }, { path: '/home/u/app2' }])).toMatchObject({ value: { workspacePath: '/home/u' } });
  });

  it('refuses nested repositories, a filesystem-root workspace and relative paths', () => {
    expect(localWorkspaceLayout([{ path: '/home/u/a' }, { path: '/home/u/a/b' }]).ok).toBe(false);
    expect(localWorkspaceLayout([{ path: '/srv/a' }, { path: '/home/b' }]).ok).toBe(false);
    expect(localWorkspaceLayout([{ path: 'rel' }]).ok).toBe(false);
    expect(localWorkspaceLayout([]).ok).toBe(false);
  });
});

describe('taskHostEnvironment', () => {
  it('merges task overrides over the backend env and sets agentctl variables last', () => {
    const env = taskHostEnvironment(
      { PATH: '/usr/bin', HOME: '/root', AGENTCTL_TOKEN: 'inherited', KANDEV_TOKEN: 'the-backend-access-token', KEEP: '1' },
      { HOME: '/task-home', GOBIN: '/task-home/bin' },
      { token: 't', workspacePath: '/w', repoSubpaths: ['a'] },
    );
    expect(env).toEqual({
      PATH: '/usr/bin',
      HOME: '/task-home',
      GOBIN: '/task-home/bin',
      KEEP: '1',
      AGENTCTL_TOKEN: 't',
      AGENTCTL_WORKSPACE: '/w',
      AGENTCTL_REPOS: '["a"]',
      AGENTCTL_HOST: '127.0.0.1',
      AGENTCTL_PORT: '0',
      AGENTCTL_EXIT_ON_STDIN_CLOSE: '1',
    });
  });
});
