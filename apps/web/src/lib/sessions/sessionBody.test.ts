import type { ExecutorKind, Session } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import { ApiRequestError, type TaskSummary } from '../../api/kandevApi.js';
import { refusedSessionId, sessionBody, unsupportedOpenTarget } from './sessionBody.js';

const session = (id: string, status: Session['status']): Session => ({ id, taskId: 't1', status, createdAt: '2026-01-01T00:00:00.000Z' });
const task = (executor: ExecutorKind, sessions: Session[] = []): TaskSummary => ({
  id: 't1',
  title: 'T',
  executor,
  repositories: [],
  env: {},
  createdAt: '2026-01-01T00:00:00.000Z',
  trustWorkspaceTools: false,
  sessions,
});

describe('sessionBody', () => {
  it('S26 an unsupported executor shows its notice whatever the session status, never the workbench', () => {
    for (const executor of ['remote_docker', 'ssh', 'sprites'] as const) {
      for (const status of ['failed', 'running', 'starting', 'stopped'] as const) expect(sessionBody(session('s', status), task(executor))).toBe('unsupported');
    }
  });
  it('supported executors show the workbench while live and the ended notice otherwise', () => {
    expect(sessionBody(session('s', 'running'), task('local_pc'))).toBe('workbench');
    expect(sessionBody(session('s', 'starting'), task('local_docker'))).toBe('workbench');
    expect(sessionBody(session('s', 'failed'), task('local_pc'))).toBe('ended');
    expect(sessionBody(session('s', 'stopped'), undefined)).toBe('ended');
  });
});

describe('refusedSessionId', () => {
  it('S26 opens the failed session a 422 executor_unsupported recorded', () => {
    expect(refusedSessionId(new ApiRequestError(422, 'executor_unsupported', undefined, session('s9', 'failed')))).toBe('s9');
  });
  it('other failures stay a generic start failure', () => {
    expect(refusedSessionId(new ApiRequestError(422, 'executor_unsupported'))).toBeUndefined();
    expect(refusedSessionId(new ApiRequestError(500, 'internal', undefined, session('s9', 'failed')))).toBeUndefined();
    expect(refusedSessionId(new Error('network'))).toBeUndefined();
  });
});

describe('unsupportedOpenTarget', () => {
  it('S26 reopens the newest recorded session instead of starting another refused one', () => {
    expect(unsupportedOpenTarget(task('ssh', [session('old', 'failed'), session('new', 'failed')]))).toBe('new');
    expect(unsupportedOpenTarget(task('ssh'))).toBeUndefined();
    expect(unsupportedOpenTarget(task('local_pc', [session('s', 'failed')]))).toBeUndefined();
  });
});
