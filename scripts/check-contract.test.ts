import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runScript, scratchTrees } from './lib/scratchTree.js';

const script = join(dirname(fileURLToPath(import.meta.url)), 'check-contract.mjs');
const tree = scratchTrees('check-contract-');
const check = (...roots: string[]) => runScript(script, ...roots);

describe('check-contract', () => {
  it('passes routes and close codes taken from the protocol, and numbers that are no close code', () => {
    const root = tree({
      'routes.ts': [
        "import { API_ROUTES, apiPath, CloseCode, LSP_SOCKET_PATH } from '@kandev/protocol';",
        "import { x } from '../api/client.js';",
        '/** Served at `/api/tasks/:id` and `/lsp/:sessionId`; closes 4005 when full. */',
        'router.get(API_ROUTES.task, handler);',
        "const url = apiPath('session', { id });",
        'socket.close(CloseCode.Normal);',
        'setTimeout(retry, 1000);',
        'const day = 24 * 60 * 60 * 1000;',
        'if (ops.length > 1000) refuse();',
        "const label = 'lsp';",
        "const file = 'src/api/tasks.ts';",
        '',
      ].join('\n'),
    });
    const result = check(root);
    expect(result.output).toContain('no route or close code literal in 1 files');
    expect(result.status).toBe(0);
  });

  it('fails on a route spelled as a string, a template or a pattern, with file and line', () => {
    const root = tree({
      'server.ts': [
        "router.get('/api/tasks/:id', handler);",
        'const url = `/api/sessions/${id}/file?${query}`;',
        'const ws = `${scheme}//${host}/lsp/${id}`;',
        "log.warn('refused', { path: '/lsp' });",
        'const metrics = "/metrics";',
        'const m = /^\\/lsp\\/([^/]+)$/.exec(path);',
        "fetch('/api/v1/files');",
        '',
      ].join('\n'),
    });
    const result = check(root);
    expect(result.status).toBe(1);
    for (const line of [1, 2, 3, 4, 5, 6, 7]) expect(result.output).toMatch(new RegExp(`server\\.ts:${line}: route spelled`));
    expect(result.output).toContain('7 contract literal(s) in 1 files');
  });

  it('fails on a close code spelled as a number where it stands as a close code', () => {
    const root = tree({
      'close.ts': [
        'socket.close(1007);',
        'out.closeBrowser(id, 4009);',
        'this.endAbruptly(lease, reason, code, out, 1001);',
        'if (event.code === 1000) clear();',
        'const reply = { code: 4005 };',
        'type Upstream = 1000 | 1001;',
        'host.onClosed(this, typeof code === "number" ? code : 1006);',
        'switch (closeCode) { case 4006: break; }',
        '',
      ].join('\n'),
    });
    const result = check(root);
    expect(result.status).toBe(1);
    for (const line of [1, 2, 3, 4, 5, 6, 7, 8]) expect(result.output).toMatch(new RegExp(`close\\.ts:${line}: close code \\d+ spelled as a number`));
    expect(result.output).toContain('9 contract literal(s) in 1 files');
  });

  it('leaves test files alone: they are the independent witness of the wire', () => {
    const root = tree({ 'api.test.ts': "expect(url).toBe('/api/tasks');\nexpect(code).toBe(4005);\nsocket.close(1000);\n" });
    expect(check(root).status).toBe(0);
  });

  it('prints usage for --help, refuses an unknown option or a missing folder', () => {
    expect(check('--help')).toMatchObject({ status: 0, output: expect.stringMatching(/^usage: node scripts\/check-contract\.mjs/) });
    expect(check('--strict').status).toBe(2);
    expect(check(join(tree({}), 'nope')).output).toMatch(/not a folder/);
  });
});
