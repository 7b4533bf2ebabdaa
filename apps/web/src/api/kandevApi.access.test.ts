import { API_ROUTES } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import { ApiRequestError, createKandevApi } from './kandevApi.js';

const answer = (status: number, body: unknown = {}) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the API and the page sign-in', () => {
  it('any 401 is reported (the page is signed out) and still fails the call with its code', async () => {
    let reported = 0;
    const api = createKandevApi(
      async () => answer(401, { error: { code: 'unauthorized', message: 'an access token is required' } }),
      () => reported++,
    );
    await expect(api.listTasks()).rejects.toMatchObject({ status: 401, code: 'unauthorized' });
    await expect(api.writeFile('s1', 'a.ts', 'text', undefined)).rejects.toBeInstanceOf(ApiRequestError);
    expect(reported).toBe(2);
  });

  it('checkAccess: 200 ok, 401 refused, anything else or no answer unreachable (never throws)', async () => {
    const urls: string[] = [];
    const checkWith = (respond: () => Promise<Response>) => createKandevApi(async (url) => (urls.push(url), respond())).checkAccess();
    expect(await checkWith(async () => answer(200, { signedIn: true }))).toBe('ok');
    expect(await checkWith(async () => answer(401))).toBe('refused');
    expect(await checkWith(async () => answer(502))).toBe('unreachable');
    expect(await checkWith(() => Promise.reject(new TypeError('Failed to fetch')))).toBe('unreachable');
    expect(new Set(urls)).toEqual(new Set([API_ROUTES.access]));
  });
});
