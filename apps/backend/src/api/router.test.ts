import { describe, expect, it } from 'vitest';
import { Router } from './router.js';

const reply = (tag: string) => () => ({ status: 200, json: tag });

describe('Router', () => {
  const router = new Router()
    .get('/api/tasks', reply('list'))
    .post('/api/tasks', reply('create'))
    .get('/api/tasks/:id', reply('one'))
    .post('/api/sessions/:id/stop', reply('stop'));

  it('matches method and path, and decodes parameters', () => {
    const match = router.match('GET', '/api/tasks/a%20b');
    expect(match.kind).toBe('found');
    expect(match.kind === 'found' && match.params).toEqual({ id: 'a b' });
    expect(router.match('POST', '/api/tasks').kind).toBe('found');
  });

  it('treats HEAD as GET and ignores a trailing slash', () => {
    expect(router.match('HEAD', '/api/tasks/').kind).toBe('found');
  });

  it('says which methods a known path allows', () => {
    expect(router.match('DELETE', '/api/tasks')).toEqual({ kind: 'method_not_allowed', allow: ['GET', 'POST'] });
    expect(router.match('GET', '/api/sessions/x/stop')).toEqual({ kind: 'method_not_allowed', allow: ['POST'] });
  });

  it('does not match extra or missing segments, or undecodable parameters', () => {
    expect(router.match('GET', '/api/tasks/a/b').kind).toBe('not_found');
    expect(router.match('GET', '/api').kind).toBe('not_found');
    expect(router.match('GET', '/api/tasks/%E0%A4%A').kind).toBe('not_found');
  });
});
