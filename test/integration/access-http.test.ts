import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACCESS_COOKIE, ACCESS_TOKEN_PARAM } from '@kandev/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiDeps } from '../../apps/backend/src/api/routes/deps.js';
import { createApiRouter } from '../../apps/backend/src/server.js';
import { TEST_ACCESS_TOKEN } from '../support/access.js';
import { BrowserClient, startTestBackend, type TestBackend } from './backend-support.js';

/**
 * access: every HTTP route but /api/health and every LSP upgrade needs the access token
 * (bearer header or the cookie of the start link); another origin stays refused with it; JSON
 * APIs take JSON only.
 */
let stack: TestBackend;
beforeAll(async () => {
  stack = await startTestBackend();
});
afterAll(() => stack?.close());

const bearer = { authorization: `Bearer ${TEST_ACCESS_TOKEN}` };
const cookie = { cookie: `${ACCESS_COOKIE}=${TEST_ACCESS_TOKEN}` };

async function raw(method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) {
  const response = await fetch(`${stack.url}${path}`, { method, headers: init.headers ?? {}, body: init.body, redirect: 'manual' });
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** Every API route of the real router, with its `:params` filled in. */
const routes = createApiRouter({} as ApiDeps)
  .list()
  .map(({ method, pattern }) => ({ method, path: pattern.replace(/:(\w+)/g, 'x-$1') }));

describe('access token', () => {
  it('the enumerated router covers every route family (tasks, sessions, files proxy, settings, languages, metrics, health)', () => {
    const paths = routes.map((r) => `${r.method} ${r.path}`);
    for (const family of [
      'GET /api/tasks',
      'POST /api/tasks',
      'POST /api/tasks/x-id/sessions',
      'GET /api/sessions/x-id',
      'POST /api/sessions/x-id/stop',
      'GET /api/sessions/x-id/files',
      'GET /api/sessions/x-id/file',
      'PUT /api/sessions/x-id/file',
      'GET /api/sessions/x-id/search',
      'GET /api/settings',
      'PUT /api/settings',
      'GET /api/languages',
      'GET /metrics',
      'GET /api/health',
    ]) {
      expect(paths).toContain(family);
    }
  });

  it.each(routes.filter((r) => r.path !== '/api/health'))('$method $path answers 401 without the token, and with a wrong one', async ({ method, path }) => {
    const body = method === 'GET' ? undefined : '{}';
    const json: Record<string, string> = body ? { 'content-type': 'application/json' } : {};
    for (const headers of [json, { ...json, authorization: 'Bearer wrong-token-0123456789' }, { ...json, cookie: `${ACCESS_COOKIE}=wrong-token-0123456789` }]) {
      const reply = await raw(method, `${path}?path=a.ts&q=x`, { headers, body });
      expect(reply.status).toBe(401);
      expect(reply.json).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
      expect(reply.headers.get('www-authenticate')).toBe('Bearer');
    }
    // A token in the query is a sign-in link for pages only; an API never reads it.
    expect((await raw(method, `${path}?${ACCESS_TOKEN_PARAM}=${TEST_ACCESS_TOKEN}`, { headers: json, body })).status).toBe(401);
  });

  it('answers /api/health without a token, and nothing was created by the refused writes', async () => {
    expect(await raw('GET', '/api/health')).toMatchObject({ status: 200, json: { ok: true } });
    expect((await stack.api('GET', '/api/tasks')).json.tasks).toEqual([]);
  });

  it('keeps an idle connection open 30 s and tells clients so (a client reusing it after a busy pause met a closing socket)', async () => {
    const response = await fetch(`${stack.url}/api/health`);
    expect(response.headers.get('keep-alive')).toBe('timeout=30');
  });

  it('accepts the bearer header and the cookie alike', async () => {
    expect(await raw('GET', '/api/tasks', { headers: bearer })).toMatchObject({ status: 200, json: { tasks: [] } });
    expect(await raw('GET', '/api/tasks', { headers: cookie })).toMatchObject({ status: 200, json: { tasks: [] } });
    expect(await raw('GET', '/api/settings', { headers: { cookie: `theme=dark; ${ACCESS_COOKIE}=${TEST_ACCESS_TOKEN}` } })).toMatchObject({ status: 200 });
    expect((await raw('GET', '/metrics', { headers: bearer })).text).toContain('kandev_sessions_running');
  });

  it('serves the app only with the cookie; without it a page load gets the access page (401) and assets a bare 401', async () => {
    for (const path of ['/', '/index.html', '/sessions/1/files/src/main.ts']) {
      const page = await raw('GET', path);
      expect(page.status).toBe(401);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.text).toContain('Kandev needs its access link');
      expect(page.text).toContain('<code>npm start</code>');
      expect(page.text).not.toContain(TEST_ACCESS_TOKEN);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    }
    const asset = await raw('GET', '/assets/app.js');
    expect(asset.status).toBe(401);
    expect(asset.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect((await raw('GET', '/', { headers: { cookie: `${ACCESS_COOKIE}=stale-token-0123456789` } })).status).toBe(401);
    expect((await raw('GET', '/', { headers: cookie })).status).toBe(200);
    expect((await raw('GET', '/', { headers: bearer })).status).toBe(200);
  });

  it('shows the access page in the reader language (Accept-Language, or ?locale= as the app takes it)', async () => {
    const pt = await raw('GET', '/', { headers: { 'accept-language': 'pt-PT,pt;q=0.9' } });
    expect(pt.text).toContain('O Kandev precisa da ligação de acesso');
    expect(pt.headers.get('content-language')).toBe('pt-PT');
    expect((await raw('GET', '/?locale=zh-cn')).text).toContain('Kandev 需要访问链接');
  });

  it('the start link sets an HttpOnly SameSite=Strict cookie and redirects to the same address without the token', async () => {
    const link = await raw('GET', `/?locale=pt-pt&${ACCESS_TOKEN_PARAM}=${TEST_ACCESS_TOKEN}`);
    expect(link.status).toBe(303);
    expect(link.headers.get('location')).toBe('/?locale=pt-pt');
    expect(link.headers.get('set-cookie')).toBe(`${ACCESS_COOKIE}=${TEST_ACCESS_TOKEN}; Path=/; HttpOnly; SameSite=Strict; Max-Age=2592000`);
    expect((await raw('GET', `/sessions/abc?${ACCESS_TOKEN_PARAM}=${TEST_ACCESS_TOKEN}`)).headers.get('location')).toBe('/sessions/abc');
    // A path that a browser would read as another host is not echoed into Location.
    expect((await raw('GET', `//evil.example/?${ACCESS_TOKEN_PARAM}=${TEST_ACCESS_TOKEN}`)).headers.get('location')).toBe('/');
    const wrong = await raw('GET', `/?${ACCESS_TOKEN_PARAM}=wrong-token-0123456789`);
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    expect(wrong.text).toContain('Kandev needs its access link');
  });

  it('refuses state changes from another origin also with a valid token', async () => {
    const body = JSON.stringify({ title: 'csrf', executor: 'local_pc', repositories: [{ path: '/tmp' }] });
    for (const auth of [bearer, cookie]) {
      const reply = await raw('POST', '/api/tasks', { headers: { ...auth, 'content-type': 'application/json', origin: 'http://evil.example' }, body });
      expect(reply).toMatchObject({ status: 403, json: { error: { code: 'forbidden' } } });
    }
    expect((await stack.api('GET', '/api/tasks')).json.tasks).toEqual([]);
  });

  it('refuses non-JSON bodies of JSON APIs with 415, also with a valid token, and creates nothing', async () => {
    const body = JSON.stringify({ title: 'plain', executor: 'local_pc', repositories: [{ path: '/tmp' }] });
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const reply = await raw('POST', '/api/tasks', { headers: { ...bearer, 'content-type': type }, body });
      expect(reply).toMatchObject({ status: 415, json: { error: { code: 'unsupported_media_type' } } });
    }
    expect((await raw('POST', '/api/tasks', { headers: bearer, body })).status).toBe(415);
    expect((await raw('PUT', '/api/settings', { headers: { ...bearer, 'content-type': 'text/plain' }, body: '{"locale":"pt-pt"}' })).status).toBe(415);
    expect((await stack.api('GET', '/api/tasks')).json.tasks).toEqual([]);
    expect((await stack.api('GET', '/api/settings')).json.locale).not.toBe('pt-pt');
    // A write without a body needs no content type (the session does not exist: 404, not 415).
    expect((await raw('POST', '/api/sessions/nope/stop', { headers: bearer })).status).toBe(404);
  });

  it('refuses the LSP upgrade with 401 without the token or with a wrong one; bearer and cookie both open it', async () => {
    const wsUrl = `${stack.url.replace(/^http/, 'ws')}/lsp/no-such-session?language=typescript`;
    for (const token of [null, 'wrong-token-0123456789']) {
      const refused = new BrowserClient(wsUrl, { token });
      expect(await refused.opened).toBe(false);
      expect(refused.refusedStatus).toBe(401);
    }
    const withBearer = new BrowserClient(wsUrl, { token: TEST_ACCESS_TOKEN });
    expect(await withBearer.opened).toBe(true);
    // Past the access check, admission answers with a close code on the accepted socket.
    expect((await withBearer.closed).code).toBeGreaterThanOrEqual(4000);

    const WebSocket = (await import('ws')).default;
    const withCookie = new WebSocket(wsUrl, { headers: { ...cookie, origin: stack.url } });
    expect(
      await new Promise((resolve) => {
        withCookie.once('open', () => resolve(true));
        withCookie.once('unexpected-response', () => resolve(false));
      }),
    ).toBe(true);
    withCookie.close();
    // Another origin is refused at the upgrade even with the cookie.
    const evil = new BrowserClient(wsUrl, { token: TEST_ACCESS_TOKEN, origin: 'http://evil.example' });
    expect(await evil.opened).toBe(false);
    expect(evil.refusedStatus).toBe(403);
  });

  it('never writes the access token into its log', async () => {
    // Written asynchronously: flushed before it is read.
    await stack.backend.flushLog();
    const log = readFileSync(join(stack.home, 'logs/backend.log'), 'utf8');
    expect(log).toContain('"event":"request_refused"');
    expect(log).toContain('"reason":"unauthenticated"');
    expect(log).not.toContain(TEST_ACCESS_TOKEN);
    expect(log).not.toContain('wrong-token-0123456789');
  });
});
