import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseNewTask } from './taskValidation.js';

const root = mkdtempSync(join(tmpdir(), 'kandev-tasks-'));
mkdirSync(join(root, 'a'));
mkdirSync(join(root, 'b'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const valid = { title: ' My task ', executor: 'local_pc', repositories: [{ path: join(root, 'a') }], env: { HOME: '/h' } };

describe('parseNewTask', () => {
  it('accepts a Local PC task with existing absolute folders', () => {
    expect(parseNewTask(valid)).toEqual({ ok: true, value: { ...valid, title: 'My task' } });
    expect(parseNewTask({ ...valid, env: undefined })).toMatchObject({ ok: true, value: { env: {} } });
    expect(parseNewTask({ ...valid, repositories: [{ path: join(root, 'a') }, { path: join(root, 'b') }] }).ok).toBe(true);
  });

  it.each([
    ['a non-object body', []],
    ['an empty title', { ...valid, title: ' ' }],
    ['an unknown executor', { ...valid, executor: 'kubernetes' }],
    ['no repositories', { ...valid, repositories: [] }],
    ['a relative path', { ...valid, repositories: [{ path: 'a' }] }],
    ['a missing folder', { ...valid, repositories: [{ path: join(root, 'missing') }] }],
    ['a file instead of a folder', { ...valid, repositories: [{ path: '/etc/hostname' }] }],
    ['a repository listed twice', { ...valid, repositories: [{ path: join(root, 'a') }, { path: join(root, 'a/') }] }],
    ['nested repositories', { ...valid, repositories: [{ path: root }, { path: join(root, 'a') }] }],
    ['a non-string env value', { ...valid, env: { HOME: 1 } }],
    ['an invalid env name', { ...valid, env: { 'A-B': 'x' } }],
    ['an AGENTCTL_ variable', { ...valid, env: { AGENTCTL_TOKEN: 'x' } }],
  ])('refuses %s with bad_request', (_label, body) => {
    const parsed = parseNewTask(body);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error.code).toBe('bad_request');
  });

  it('keeps paths of remote kinds as given (they name another host)', () => {
    expect(parseNewTask({ ...valid, executor: 'remote_docker', repositories: [{ path: '/workspace/app' }] })).toMatchObject({
      ok: true,
      value: { executor: 'remote_docker', repositories: [{ path: '/workspace/app' }] },
    });
  });
});

describe("refusals name the field and the reason, for the browser's copy", () => {
  it.each([
    [
      { ...valid, title: '' },
      { field: 'title', reason: 'title_empty' },
    ],
    [
      { ...valid, title: 'x'.repeat(201) },
      { field: 'title', reason: 'title_too_long' },
    ],
    [
      { ...valid, executor: 'nope' },
      { field: 'executor', reason: 'executor_unknown' },
    ],
    [
      { ...valid, repositories: [] },
      { field: 'repositories', reason: 'repositories_count' },
    ],
    [
      { ...valid, repositories: [{ path: join(root, 'a') }, { path: 'rel/path' }] },
      { field: 'repositories', reason: 'path_not_absolute', index: 1 },
    ],
    [
      { ...valid, repositories: [{ path: join(root, 'missing') }] },
      { field: 'repositories', reason: 'path_missing', index: 0 },
    ],
    [
      { ...valid, repositories: [{ path: join(root, 'a') }, { path: '/etc/hostname' }] },
      { field: 'repositories', reason: 'path_not_directory', index: 1 },
    ],
    [
      { ...valid, repositories: [{ path: '  ' }] },
      { field: 'repositories', reason: 'path_empty', index: 0 },
    ],
    [
      { ...valid, repositories: [{ path: root }, { path: join(root, 'a') }] },
      { field: 'repositories', reason: 'paths_nested' },
    ],
    [
      { ...valid, env: { 'A-B': 'x' } },
      { field: 'env', reason: 'env_invalid' },
    ],
  ])('%#: %o', (body, invalid) => {
    const parsed = parseNewTask(body);
    expect(parsed).toMatchObject({ ok: false, error: { code: 'bad_request', invalid } });
  });
});
