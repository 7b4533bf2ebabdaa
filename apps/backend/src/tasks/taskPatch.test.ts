import { describe, expect, it } from 'vitest';
import { parseTaskPatch } from './taskPatch.js';

describe('PATCH /api/tasks/:id body', () => {
  it('accepts the trust switch as a boolean', () => {
    expect(parseTaskPatch({ trustWorkspaceTools: true })).toEqual({ ok: true, value: { trustWorkspaceTools: true } });
    expect(parseTaskPatch({ trustWorkspaceTools: false })).toEqual({ ok: true, value: { trustWorkspaceTools: false } });
  });

  it('refuses anything else whole, with a clear message', () => {
    const refused = (body: unknown) => {
      const result = parseTaskPatch(body);
      return result.ok ? undefined : result.error;
    };
    expect(refused({ trustWorkspaceTools: 'true' })).toMatchObject({ code: 'bad_request', message: 'trustWorkspaceTools must be true or false' });
    expect(refused({ trustWorkspaceTools: true, executor: 'x' })).toMatchObject({ code: 'bad_request', message: 'cannot change "executor"' });
    expect(refused({})).toMatchObject({ code: 'bad_request', message: 'nothing to change' });
    expect(refused([true])).toMatchObject({ code: 'bad_request' });
    expect(refused(null)).toMatchObject({ code: 'bad_request' });
  });
});

describe('PATCH /api/tasks/:id title', () => {
  it('accepts a new title, trimmed, alone or with the trust switch', () => {
    expect(parseTaskPatch({ title: '  Renamed ' })).toEqual({ ok: true, value: { title: 'Renamed' } });
    expect(parseTaskPatch({ title: 'R', trustWorkspaceTools: false })).toEqual({ ok: true, value: { title: 'R', trustWorkspaceTools: false } });
  });

  it.each([
    [[], 'body'],
    [{ title: ' ' }, 'title_empty'],
    [{ title: 'x'.repeat(201) }, 'title_too_long'],
    [{ title: 'ok', executor: 'local_docker' }, 'body'],
  ])('refuses %o (%s)', (body, reason) => {
    expect(parseTaskPatch(body)).toMatchObject({ ok: false, error: { code: 'bad_request', invalid: { reason } } });
  });
});
