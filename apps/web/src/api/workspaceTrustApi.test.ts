import { describe, expect, it } from 'vitest';
import { createKandevApi } from './kandevApi.js';
import { workspaceTrustApi } from './workspaceTrustApi.js';

const createWorkspaceTrustApi = (fetchImpl: (url: string, init?: RequestInit) => Promise<Response>) => workspaceTrustApi(createKandevApi(fetchImpl));

function fakeFetch(routes: Record<string, (init?: RequestInit) => unknown>) {
  const calls: Array<{ url: string; method: string; body?: string }> = [];
  const fetchImpl = async (url: string, init?: RequestInit) => {
    calls.push({ url, method: init?.method ?? 'GET', body: init?.body as string | undefined });
    const route = routes[`${init?.method ?? 'GET'} ${url}`];
    if (!route) return new Response('{}', { status: 404 });
    return new Response(JSON.stringify(route(init)), { status: 200 });
  };
  return { calls, fetchImpl };
}

describe('workspace trust API', () => {
  it('reads the trust of the task a session belongs to', async () => {
    const { fetchImpl } = fakeFetch({
      'GET /api/sessions/s%201': () => ({ id: 's 1', taskId: 't1', status: 'running' }),
      'GET /api/tasks/t1': () => ({ id: 't1', trustWorkspaceTools: true }),
    });
    expect(await createWorkspaceTrustApi(fetchImpl).load('s 1')).toEqual({ taskId: 't1', trusted: true });
  });

  it('changes it with PATCH {trustWorkspaceTools} and reports what the backend stored', async () => {
    const { calls, fetchImpl } = fakeFetch({ 'PATCH /api/tasks/t1': () => ({ id: 't1', trustWorkspaceTools: false }) });
    expect(await createWorkspaceTrustApi(fetchImpl).set('t1', false)).toEqual({ taskId: 't1', trusted: false });
    expect(calls).toEqual([{ url: '/api/tasks/t1', method: 'PATCH', body: '{"trustWorkspaceTools":false}' }]);
  });

  it('an error answer is an error, never a silent "untrusted"', async () => {
    const { fetchImpl } = fakeFetch({});
    await expect(createWorkspaceTrustApi(fetchImpl).load('missing')).rejects.toThrow('HTTP 404');
  });
});
