import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyDemoWorkspace, taskPath } from '../support/stack.js';
import { LeaseClient, startLeaseBackend, startSession, type LeaseBackend } from './lease-support.js';

/**
 * The real contract end to end with real language servers: a browser-side socket on the backend
 * gateway, the lease broker, agentctl's bridge, and typescript-language-server 5 with TypeScript 6,
 * pyright and Debian's gopls, on the demo workspace. Each language: hover on a known symbol,
 * completion with a known member, a type-error diagnostic, and definition into another file.
 */
let stack: LeaseBackend;
let workspace: string;
let sessionId: string;

beforeAll(async () => {
  stack = await startLeaseBackend();
  workspace = copyDemoWorkspace();
  const env = { PATH: taskPath(), GOFLAGS: '-mod=mod', GOPROXY: 'off' };
  const task = await stack.api('POST', '/api/tasks', { title: 'real servers', executor: 'local_pc', repositories: [{ path: workspace }], env });
  sessionId = await startSession(stack, task.json.id);
});

afterAll(async () => {
  await stack?.close();
});

interface Case {
  language: string;
  languageId: string;
  file: string;
  hover: { text: string; offset: number; expect: RegExp };
  completion: { after: string; member: string };
  diagnostic: RegExp;
  definition: { text: string; offset: number; file: string };
}

const cases: Case[] = [
  {
    language: 'typescript',
    languageId: 'typescript',
    file: 'src/main.ts',
    hover: { text: 'createGreeter(', offset: 2, expect: /createGreeter\(prefix: string\): Greeter/ },
    completion: { after: 'greeter.', member: 'farewell' },
    diagnostic: /Type 'string' is not assignable to type 'number'/,
    definition: { text: 'createGreeter(', offset: 2, file: 'src/greeter.ts' },
  },
  {
    language: 'python',
    languageId: 'python',
    file: 'app/main.py',
    hover: { text: 'add_numbers(2', offset: 2, expect: /def add_numbers\(\s*first: int,\s*second: int\s*\) -> int/ },
    completion: { after: 'total.', member: 'bit_length' },
    diagnostic: /"int" is not assignable to "str"|Type "int" is not assignable/,
    definition: { text: 'add_numbers(2', offset: 2, file: 'app/util.py' },
  },
  {
    language: 'go',
    languageId: 'go',
    file: 'main.go',
    hover: { text: 'Double(21)', offset: 2, expect: /func (util\.)?Double\(n int\) int/ },
    completion: { after: 'util.', member: 'Double' },
    diagnostic: /cannot use util\.Double\(2\)/,
    definition: { text: 'Double(21)', offset: 2, file: 'util/util.go' },
  },
];

/** Line and character of `text` (+ offset) in `source`, as LSP positions (UTF-16 = JS strings). */
function positionOf(source: string, text: string, offset: number): { line: number; character: number } {
  const index = source.indexOf(text);
  if (index < 0) throw new Error(`not in the file: ${text}`);
  const before = source.slice(0, index + offset).split('\n');
  return { line: before.length - 1, character: (before[before.length - 1] as string).length };
}

function hoverText(result: any): string {
  const contents = result?.contents;
  if (typeof contents === 'string') return contents;
  if (Array.isArray(contents)) return contents.map((c) => (typeof c === 'string' ? c : c.value)).join('\n');
  return contents?.value ?? '';
}

describe.each(cases)('$language through the gateway, broker and bridge', (c) => {
  let client: LeaseClient;
  let uri: string;
  let source: string;

  beforeAll(async () => {
    client = new LeaseClient(stack.url, sessionId, c.language);
    const { ready } = await client.initialize();
    uri = `${ready.workspaceUri}/${c.file}`;
    source = readFileSync(join(workspace, c.file), 'utf8');
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: c.languageId, version: 1, text: source } });
  }, 180_000);

  afterAll(async () => {
    client?.control({ control: 'release', reason: 'stop' });
    await client?.closed;
  });

  it('publishes the deliberate type error as a diagnostic', async () => {
    const published = await client.waitFor(
      (f) => f.method === 'textDocument/publishDiagnostics' && f.params.uri === uri && f.params.diagnostics.some((d: any) => c.diagnostic.test(d.message)),
    );
    const error = published.params.diagnostics.find((d: any) => c.diagnostic.test(d.message));
    expect(error.severity).toBe(1);
  });

  it('hovers a known symbol with its signature', async () => {
    const reply = await client.request('textDocument/hover', { textDocument: { uri }, position: positionOf(source, c.hover.text, c.hover.offset) });
    expect(hoverText(reply.result)).toMatch(c.hover.expect);
  });

  it('completes a known member', async () => {
    // Type the member access on a new last line, as an editor would send it.
    const text = `${source.trimEnd()}\n${c.language === 'go' ? `var _ = ${c.completion.after}` : c.completion.after}\n`;
    client.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text }] });
    const lines = text.split('\n');
    const line = lines.length - 2;
    const position = { line, character: (lines[line] as string).length };
    const reply = await client.request('textDocument/completion', { textDocument: { uri }, position, context: { triggerKind: 2, triggerCharacter: '.' } });
    const items = Array.isArray(reply.result) ? reply.result : (reply.result?.items ?? []);
    expect(items.map((i: any) => i.label)).toContain(c.completion.member);
    client.notify('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [{ text: source }] });
  });

  it('finds the definition in another file', async () => {
    const reply = await client.request('textDocument/definition', {
      textDocument: { uri },
      position: positionOf(source, c.definition.text, c.definition.offset),
    });
    const targets = (Array.isArray(reply.result) ? reply.result : [reply.result]).map((l: any) => l.targetUri ?? l.uri);
    expect(targets.some((t: string) => t.endsWith(`/${c.definition.file}`))).toBe(true);
  });
});
