import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { startLeaseBackend, type LeaseBackend } from './lease-support.js';
import { agentToken, call, connect, DEMO_LANGUAGES, demoSession, type DemoSession } from './mcp-support.js';

/**
 * The MCP endpoint on the demo workspace with the real servers (typescript-language-server, pyright,
 * gopls), driven by the SDK's own client with an agent token.
 */
let stack: LeaseBackend;
let session: DemoSession;
let client: Client;

beforeAll(async () => {
  stack = await startLeaseBackend();
  await stack.api('PUT', '/api/settings', { lsp_auto_start_languages: DEMO_LANGUAGES });
  session = await demoSession(stack);
  const { url, token } = await agentToken(stack, session.sessionId);
  client = await connect(url, token);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await stack?.close();
});

describe('mcp: the tools on the demo with real servers', () => {
  it('lists every tool with a short description and gives instructions', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'call_hierarchy',
      'code_actions',
      'definition',
      'diagnostics',
      'document_symbols',
      'hover',
      'implementation',
      'references',
      'rename',
      'workspace_symbols',
    ]);
    for (const tool of tools) expect((tool.description ?? '').length).toBeLessThan(140);
    expect(client.getInstructions()).toMatch(/grep/);
  });

  it('hover and definition by line and column, and by symbol', async () => {
    const hover = await call(client, 'hover', { path: 'src/greeter.ts', line: 8, column: 17 });
    expect(hover.text).toMatch(/createGreeter\(prefix: string\): Greeter/);
    const definition = await call(client, 'definition', { path: 'src/main.ts', line: 3, column: 18 });
    expect(definition.text).toMatch(/src\/greeter\.ts:8:17/);
    const bySymbol = await call(client, 'definition', { path: 'app/main.py', line: 3, column: 14 });
    expect(bySymbol.text).toMatch(/app\/util\.py:1:5/);
    const goSymbol = await call(client, 'hover', { path: 'util/util.go', symbol: 'Double' });
    expect(goSymbol.text).toMatch(/func Double\(n int\) int/);
  }, 240_000);
  it('diagnostics: each demo file reports its deliberate type error, fresh once its server settled', async () => {
    const result = await call(client, 'diagnostics', { paths: ['src/main.ts', 'app/main.py', 'main.go'] });
    expect(result.isError).toBeFalsy();
    expect(result.text).toMatch(/src\/main\.ts: fresh/);
    expect(result.text).toMatch(/src\/main\.ts:7:7 error \[typescript 2322\]/);
    expect(result.text).toMatch(/app\/main\.py: fresh/);
    expect(result.text).toMatch(/app\/main\.py:7:\d+ error.*int/);
    expect(result.text).toMatch(/main\.go: fresh/);
    expect(result.text).toMatch(/main\.go:12:\d+ error.*cannot use/);
  }, 240_000);
});

describe('mcp: navigation, symbols and edits on the demo', () => {
  it('references and implementation list path:line:col with a line of context', async () => {
    const refs = await call(client, 'references', { path: 'src/greeter.ts', symbol: 'createGreeter' });
    expect(refs.isError).toBeFalsy();
    expect(refs.text).toMatch(/^3 references result/);
    expect(refs.text).toMatch(/src\/main\.ts:1:10\n {4}import \{ createGreeter \} from '\.\/greeter';/);
    const impl = await call(client, 'implementation', { path: 'src/greeter.ts', symbol: 'greet', container: 'Greeter' });
    expect(impl.text).toMatch(/src\/greeter\.ts:10:5/);
  }, 240_000);

  it('document_symbols and workspace_symbols', async () => {
    const outline = await call(client, 'document_symbols', { path: 'src/greeter.ts' });
    expect(outline.text).toMatch(/src\/greeter\.ts:2:18 interface Greeter/);
    expect(outline.text).toMatch(/src\/greeter\.ts:8:17 function createGreeter/);
    const found = await call(client, 'workspace_symbols', { query: 'Double', language: 'go' });
    expect(found.text).toMatch(/util\/util\.go:5:6 function Double/);
  }, 240_000);

  it('call_hierarchy: who calls Double', async () => {
    const calls = await call(client, 'call_hierarchy', { path: 'util/util.go', symbol: 'Double', direction: 'incoming' });
    expect(calls.text).toMatch(/main\.go:10:\d+ called from function main/);
  }, 240_000);

  it('code_actions: the quick fixes for the TypeScript error as diffs, nothing written', async () => {
    const before = readFileSync(join(session.workspace, 'src/main.ts'), 'utf8');
    const actions = await call(client, 'code_actions', { path: 'src/main.ts', line: 7, column: 7, end_line: 7, end_column: 12 });
    expect(actions.isError).toBeFalsy();
    expect(actions.text).toMatch(/quick fixes at src\/main\.ts:7:7/);
    expect(readFileSync(join(session.workspace, 'src/main.ts'), 'utf8')).toBe(before);
  }, 240_000);

  it('rename previews a unified diff and writes nothing without apply', async () => {
    const preview = await call(client, 'rename', { path: 'app/util.py', symbol: 'add_numbers', new_name: 'add_ints' });
    expect(preview.isError).toBeFalsy();
    expect(preview.text).toContain('--- a/app/util.py\n+++ b/app/util.py');
    expect(preview.text).toContain('-def add_numbers(first: int, second: int) -> int:\n+def add_ints(first: int, second: int) -> int:');
    expect(preview.text).toContain('+from app.util import add_ints');
    expect(readFileSync(join(session.workspace, 'app/util.py'), 'utf8')).toContain('def add_numbers');
  }, 240_000);

  it('rename with apply: true writes every edit through the files route and says so', async () => {
    const applied = await call(client, 'rename', { path: 'src/greeter.ts', symbol: 'farewell', container: 'Greeter', new_name: 'sayGoodbye', apply: true });
    expect(applied.isError).toBeFalsy();
    expect(applied.text).toMatch(/^applied: 1 files written/);
    expect(applied.structuredContent).toMatchObject({ applied: true, files: [{ path: 'src/greeter.ts', edits: 2 }] });
    const text = readFileSync(join(session.workspace, 'src/greeter.ts'), 'utf8');
    expect(text).toContain('  sayGoodbye(name: string): string;');
    expect(text).toContain('    sayGoodbye: (name) =>');
    expect(text).not.toContain('farewell');
  }, 240_000);

  it('an ambiguous symbol answers with its candidates; an unknown one says what was searched', async () => {
    const many = await call(client, 'hover', { path: 'src/greeter.ts', symbol: 'greet' });
    expect(many.isError).toBe(true);
    expect(many.text).toMatch(/^2 symbols match "greet"/);
    const none = await call(client, 'hover', { path: 'src/greeter.ts', symbol: 'nothingLikeThis' });
    expect(none.isError).toBe(true);
    expect(none.text).toMatch(/no symbol "nothingLikeThis" in src\/greeter\.ts \(searched its \d+ document symbols/);
  }, 240_000);
});

describe('mcp: diagnostics follow the disk', () => {
  const cases = [
    {
      server: 'typescript-language-server',
      main: 'src/main.ts',
      dep: 'src/greeter.ts',
      from: 'export function createGreeter',
      to: 'export function makeGreeter',
      error: /createGreeter/,
    },
    { server: 'pyright', main: 'app/main.py', dep: 'app/util.py', from: 'def add_numbers', to: 'def sum_numbers', error: /add_numbers/ },
    { server: 'gopls', main: 'main.go', dep: 'util/util.go', from: 'func Double', to: 'func Twice', error: /undefined: util\.Double|Double not declared/ },
  ];
  for (const c of cases) {
    it(`${c.server}: ${c.dep} changed on disk breaks ${c.main}, and the next diagnostics say so`, async () => {
      const before = await call(client, 'diagnostics', { paths: [c.main] });
      expect(before.text).toMatch(new RegExp(`${c.main.replace(/[./]/g, '\\$&')}: fresh`));
      expect(before.text).not.toMatch(c.error);
      const file = join(session.workspace, c.dep);
      writeFileSync(file, readFileSync(file, 'utf8').replace(c.from, c.to));
      const after = await call(client, 'diagnostics', { paths: [c.main] });
      expect(after.text).toMatch(new RegExp(`${c.main.replace(/[./]/g, '\\$&')}: fresh`));
      expect(after.text).toMatch(c.error);
    }, 240_000);
  }
});
