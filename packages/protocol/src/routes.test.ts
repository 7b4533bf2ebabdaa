import { describe, expect, it } from 'vitest';
import { API_PREFIX, API_ROUTES, apiPath, LSP_SOCKET_PATH, lspSocketPath, lspSocketSessionSegment, METRICS_PATH } from './routes.js';

describe('backend routes', () => {
  it('are spelled as the browser and the backend have always used them', () => {
    // Literal on purpose: this is the wire, and a changed constant must fail here.
    expect(API_ROUTES.task).toBe('/api/tasks/:id');
    expect(API_ROUTES.sessionFilesApply).toBe('/api/sessions/:id/files/apply');
    expect(LSP_SOCKET_PATH).toBe('/lsp');
    expect(METRICS_PATH).toBe('/metrics');
    for (const pattern of Object.values(API_ROUTES)) expect(pattern.startsWith(`${API_PREFIX}/`)).toBe(true);
  });

  it('fills each :name segment URI-encoded, and adds a query when there is one', () => {
    expect(apiPath('task', { id: 't 1/2' })).toBe('/api/tasks/t%201%2F2');
    expect(apiPath('sessionFile', { id: 's1' }, { path: 'src/a b.ts' })).toBe('/api/sessions/s1/file?path=src%2Fa+b.ts');
    expect(apiPath('sessionSearch', { id: 's1' }, new URLSearchParams({ q: '' }))).toBe('/api/sessions/s1/search?q=');
    expect(apiPath('tasks', {}, {})).toBe('/api/tasks');
  });

  it('builds and recognizes the LSP socket path', () => {
    expect(lspSocketPath('s 1', 'go')).toBe('/lsp/s%201?language=go');
    expect(lspSocketPath('s1', 'go', 'lease-1')).toBe('/lsp/s1?language=go&lease=lease-1');
    expect(lspSocketSessionSegment('/lsp/s%201')).toBe('s%201');
    expect(lspSocketSessionSegment('/lsp/s1/')).toBe('s1');
    for (const other of ['/lsp', '/lsp/', '/lsp//', '/lsp/a/b', '/lsp/a//', '/lspx/a', '/api/lsp/a'])
      expect(lspSocketSessionSegment(other), other).toBeUndefined();
  });
});
