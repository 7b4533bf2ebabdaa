import { describe, expect, it } from 'vitest';
import { MAX_TASK_TITLE_CHARS, parseNewTaskBody, parseTaskPatchBody } from './taskBodies.js';

const valid = { title: ' Fix login ', executor: 'local_docker', repositories: [{ path: '/src/app' }], env: { GOFLAGS: '-mod=mod' } };

describe('task body schema', () => {
  it('accepts a well-formed new task, trimming its title and keeping paths as sent', () => {
    expect(parseNewTaskBody(valid)).toEqual({
      ok: true,
      value: { title: 'Fix login', executor: 'local_docker', repositories: [{ path: '/src/app' }], env: { GOFLAGS: '-mod=mod' } },
    });
    expect(parseNewTaskBody({ ...valid, env: undefined })).toMatchObject({ ok: true, value: { env: {} } });
  });

  it.each([
    ['not an object', [], { field: 'body', reason: 'body' }],
    ['an empty title', { ...valid, title: '  ' }, { field: 'title', reason: 'title_empty' }],
    ['a title too long', { ...valid, title: 'x'.repeat(MAX_TASK_TITLE_CHARS + 1) }, { field: 'title', reason: 'title_too_long' }],
    ['an unknown executor', { ...valid, executor: 'vm' }, { field: 'executor', reason: 'executor_unknown' }],
    ['no repository', { ...valid, repositories: [] }, { field: 'repositories', reason: 'repositories_count' }],
    ['a repository without a path', { ...valid, repositories: [{ path: '/a' }, { path: '' }] }, { field: 'repositories', reason: 'path_empty', index: 1 }],
    ['an env name a shell cannot hold', { ...valid, env: { 'A-B': '1' } }, { field: 'env', reason: 'env_invalid' }],
    ['an agentctl variable', { ...valid, env: { AGENTCTL_TOKEN: 'x' } }, { field: 'env', reason: 'env_invalid' }],
    ['an env value that is not a string', { ...valid, env: { A: 1 } }, { field: 'env', reason: 'env_invalid' }],
  ])('refuses %s with the field and reason the browser localizes', (_name, body, invalid) => {
    const result = parseNewTaskBody(body);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatchObject({ code: 'bad_request', invalid });
  });

  it('a patch changes only a title or the trust switch, and never nothing', () => {
    expect(parseTaskPatchBody({ title: ' New ', trustWorkspaceTools: true })).toEqual({ ok: true, value: { title: 'New', trustWorkspaceTools: true } });
    expect(parseTaskPatchBody({ executor: 'local_pc' })).toMatchObject({ ok: false, error: { invalid: { field: 'body', reason: 'body' } } });
    expect(parseTaskPatchBody({ trustWorkspaceTools: 'yes' })).toMatchObject({ ok: false, error: { invalid: { reason: 'trust_invalid' } } });
    expect(parseTaskPatchBody({})).toMatchObject({ ok: false, error: { invalid: { reason: 'nothing_to_change' } } });
  });
});

describe('task body refusals name the field', () => {
  it.each([
    [{ ...valid, title: 7 }, 'title must be a non-empty string'],
    [{ ...valid, executor: 'vm' }, 'executor must be one of local_pc, local_docker, remote_docker, ssh, sprites'],
    [{ ...valid, repositories: [{ path: '/a' }, { path: 3 }] }, 'each repository must be {"path": "..."}'],
    [{ ...valid, env: { 'A-B': '1' } }, 'env name is not valid: A-B'],
    [{ ...valid, env: { AGENTCTL_TOKEN: 'x' } }, 'env may not set AGENTCTL_TOKEN'],
    [{ ...valid, env: { GOFLAGS: 1 } }, 'env GOFLAGS must be a string'],
  ])('%j: %s', (body, message) => {
    expect(parseNewTaskBody(body)).toMatchObject({ ok: false, error: { message } });
  });

  it('reports the first wrong field in body order, whatever follows', () => {
    expect(parseNewTaskBody({ ...valid, title: '', executor: 'vm', env: 3 })).toMatchObject({ ok: false, error: { invalid: { field: 'title' } } });
    expect(parseNewTaskBody({ ...valid, repositories: Array.from({ length: 40 }, () => ({ path: '' })) })).toMatchObject({
      ok: false,
      error: { invalid: { field: 'repositories', reason: 'repositories_count' } },
    });
  });
});
