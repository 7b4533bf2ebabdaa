import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/build.js';
import { prerequisite } from '../support/env.js';
import { LeaseClient, startLeaseBackend, startSession, type LeaseBackend } from './lease-support.js';

/**
 * The configuration and web languages over the real contract (browser socket -> gateway -> broker
 * -> agentctl -> server), each server installed for real by the product: auto-install on, a task
 * HOME with nothing in it, and agentctl runs npm into `$HOME/.kandev/lsp-servers` on the first
 * connection (vscode-langservers-extracted once for JSON, CSS and HTML; yaml-language-server 1;
 * bash-language-server 5; dockerfile-language-server-nodejs). clangd and shellcheck are Debian's.
 *
 * The workspace (test/fixtures/config-workspace) is small and realistic: a package.json with a
 * schema error against a local schema named in the user's settings, a JSON file naming its own
 * relative `$schema`, a CI workflow checked against a local schema, a shell script shellcheck
 * warns about, a Dockerfile with an unknown instruction, C with a type error and a
 * compile_commands.json, a CSS file and an HTML file. Each language: a diagnostic, hover, completion.
 */
const OUTPUT_FRAMES = new Set(['server_stderr', 'server_output']);
const has = (command: string, args: string[]) => {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const ready =
  prerequisite(has('npm', ['--version']), 'npm') &&
  prerequisite(has('clangd', ['--version']), 'clangd (apt-get install clangd)') &&
  prerequisite(has('shellcheck', ['--version']), 'shellcheck (apt-get install shellcheck)');

const INSTALL_TIMEOUT = 300_000;
const NPM_LANGUAGES = ['json', 'yaml', 'shell', 'dockerfile', 'css', 'html'];

let stack: LeaseBackend;
let work: string;
let home: string;
let workspace: string;
let sessionId: string;

beforeAll(async () => {
  if (!ready) return;
  work = mkdtempSync(join(tmpdir(), 'kandev-langs-'));
  home = join(work, 'task-home');
  workspace = join(work, 'workspace');
  cpSync(join(repoRoot, 'test/fixtures/config-workspace'), workspace, { recursive: true });
  // clangd needs absolute paths here; a real project's build writes this file the same way.
  writeFileSync(
    join(workspace, 'compile_commands.json'),
    JSON.stringify([{ directory: workspace, file: 'src/main.c', arguments: ['cc', '-std=c11', '-Iinclude', '-c', 'src/main.c'] }], null, 2),
  );
  stack = await startLeaseBackend();
  const schema = (file: string) => pathToFileURL(join(workspace, 'schemas', file)).href;
  const saved = await stack.api('PUT', '/api/settings', {
    lsp_auto_install_languages: NPM_LANGUAGES,
    lsp_server_configs: {
      json: { json: { schemas: [{ fileMatch: ['package.json'], url: schema('package.schema.json') }] } },
      yaml: { yaml: { schemas: { [schema('workflow.schema.json')]: '.github/workflows/*.yml' } } },
    },
  });
  expect(saved.status).toBe(200);
  // npm's download cache is shared to spare the registry; what Kandev installs goes to the task HOME.
  const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).trim();
  const env = { HOME: home, PATH: process.env.PATH ?? '/usr/bin:/bin', npm_config_cache: npmCache };
  const task = await stack.api('POST', '/api/tasks', { title: 'config languages', executor: 'local_pc', repositories: [{ path: workspace }], env });
  sessionId = await startSession(stack, task.json.id);
}, 60_000);

afterAll(async () => {
  await stack?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

interface Case {
  language: string;
  file: string;
  languageId: string;
  diagnostic: { message: RegExp; severity: number };
  hover: { text: string; offset: number; expect: RegExp };
  /** The document as typed, the cursor at `¦`, and one label the server must offer there. */
  completion: { text: string; label: string };
  /** Where agentctl's npm install must have put the launcher (npm languages only). */
  launcher?: string;
}

const bin = (dir: string, name: string) => join('.kandev', 'lsp-servers', dir, 'node_modules', '.bin', name);

const cases: Case[] = [
  {
    language: 'json',
    file: 'package.json',
    languageId: 'json',
    diagnostic: { message: /Incorrect type\. Expected "string"/, severity: 2 },
    hover: { text: '"private"', offset: 2, expect: /keeps npm from ever publishing the package/ },
    completion: { text: '{\n  "name": "config-demo",\n  ¦\n}\n', label: 'license' },
    launcher: bin('vscode-langservers', 'vscode-json-language-server'),
  },
  {
    language: 'yaml',
    file: '.github/workflows/ci.yml',
    languageId: 'yaml',
    diagnostic: { message: /Incorrect type\. Expected "string"/, severity: 1 },
    hover: { text: 'runs-on', offset: 2, expect: /label of the runner/ },
    completion: { text: 'name: ci\non: push\njobs:\n  test:\n    runs-on: linux\n    ¦\n', label: 'timeout-minutes' },
    launcher: bin('yaml', 'yaml-language-server'),
  },
  {
    language: 'shell',
    file: 'scripts/build.sh',
    languageId: 'shellscript',
    diagnostic: { message: /Double quote to prevent globbing/, severity: 3 },
    hover: { text: 'greet $target', offset: 2, expect: /Prints a greeting/ },
    completion: { text: '#!/usr/bin/env bash\ngreet() { echo hi; }\ngre¦\n', label: 'greet' },
    launcher: bin('shell', 'bash-language-server'),
  },
  {
    language: 'dockerfile',
    file: 'Dockerfile',
    languageId: 'dockerfile',
    diagnostic: { message: /Unknown instruction: RUNN/i, severity: 1 },
    hover: { text: 'WORKDIR', offset: 2, expect: /working directory/i },
    completion: { text: 'FROM debian:12\nEXP¦\n', label: 'EXPOSE' },
    launcher: bin('dockerfile', 'docker-langserver'),
  },
  {
    language: 'cpp',
    file: 'src/main.c',
    languageId: 'c',
    diagnostic: { message: /incompatible type 'struct point'/, severity: 1 },
    hover: { text: 'add(p.x', offset: 1, expect: /int add\(int a, int b\)/ },
    completion: { text: '#include "point.h"\nint f(struct point p) { return p.¦ }\n', label: 'x' },
  },
  {
    language: 'css',
    file: 'styles/site.css',
    languageId: 'css',
    diagnostic: { message: /Unknown property: 'colr'/, severity: 2 },
    hover: { text: 'margin', offset: 2, expect: /margin/i },
    completion: { text: 'body {\n  margin: 0;\n  ¦\n}\n', label: 'color' },
    launcher: bin('vscode-langservers', 'vscode-css-language-server'),
  },
  {
    language: 'html',
    file: 'index.html',
    languageId: 'html',
    diagnostic: { message: /Unknown property: 'colr'/, severity: 2 },
    hover: { text: '<h1>Hello', offset: 2, expect: /heading/i },
    completion: { text: '<!DOCTYPE html>\n<html>\n<body>\n  <sec¦\n</body>\n</html>\n', label: 'section' },
    launcher: bin('vscode-langservers', 'vscode-html-language-server'),
  },
];

function positionAt(source: string, index: number): { line: number; character: number } {
  const before = source.slice(0, index).split('\n');
  return { line: before.length - 1, character: (before[before.length - 1] as string).length };
}

function positionOf(source: string, text: string, offset: number): { line: number; character: number } {
  const index = source.indexOf(text);
  if (index < 0) throw new Error(`not in the file: ${text}`);
  return positionAt(source, index + offset);
}

function hoverText(result: any): string {
  const contents = result?.contents;
  if (typeof contents === 'string') return contents;
  if (Array.isArray(contents)) return contents.map((c) => (typeof c === 'string' ? c : c.value)).join('\n');
  return contents?.value ?? '';
}

describe.runIf(ready).each(cases)('$language: installed by the product, answering through the gateway, broker and bridge', (c) => {
  let client: LeaseClient;
  let uri: string;
  let source: string;

  beforeAll(async () => {
    client = new LeaseClient(stack.url, sessionId, c.language);
    const { ready: readyFrame, result } = await client.initialize();
    expect(result.result?.capabilities).toBeTruthy();
    uri = `${readyFrame.workspaceUri}/${c.file}`;
    source = readFileSync(join(workspace, c.file), 'utf8');
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: c.languageId, version: 1, text: source } });
  }, INSTALL_TIMEOUT);

  afterAll(async () => {
    client?.control({ control: 'release', reason: 'stop' });
    await client?.closed;
  });

  it(c.launcher ? "was installed by agentctl into the task HOME's managed root" : "was found on the task PATH (Debian's clangd), never installed", () => {
    // Lifecycle frames only: what a server says to its Output rides the stream as `server_stderr` and `server_output` frames.
    const statuses = client.frames.filter((f) => typeof f.status === 'string' && !OUTPUT_FRAMES.has(f.status)).map((f) => f.status);
    if (!c.launcher) {
      expect(statuses).toEqual(['ready']);
      return;
    }
    expect(existsSync(join(home, c.launcher))).toBe(true);
    // JSON installs the shared package; CSS and HTML, which come later, find it installed.
    if (c.language === 'css' || c.language === 'html') {
      expect(statuses).toEqual(['ready']);
    } else {
      // `installing` repeats with npm's output lines; then installed, then ready.
      expect(statuses.filter((st, i) => st !== statuses[i - 1])).toEqual(['installing', 'installed', 'ready']);
    }
  });

  it('publishes the deliberate error as a diagnostic', async () => {
    const published = await client.waitFor(
      (f) =>
        f.method === 'textDocument/publishDiagnostics' && f.params.uri === uri && f.params.diagnostics.some((d: any) => c.diagnostic.message.test(d.message)),
    );
    const diagnostic = published.params.diagnostics.find((d: any) => c.diagnostic.message.test(d.message));
    expect(diagnostic.severity).toBe(c.diagnostic.severity);
  });

  it('hovers a known symbol', async () => {
    const reply = await client.request('textDocument/hover', { textDocument: { uri }, position: positionOf(source, c.hover.text, c.hover.offset) });
    expect(hoverText(reply.result)).toMatch(c.hover.expect);
  });

  it('completes where a person types', async () => {
    const cursor = c.completion.text.indexOf('¦');
    const text = c.completion.text.replace('¦', '');
    client.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text }] });
    const reply = await client.request('textDocument/completion', { textDocument: { uri }, position: positionAt(text, cursor), context: { triggerKind: 1 } });
    const items = Array.isArray(reply.result) ? reply.result : (reply.result?.items ?? []);
    expect(items.map((i: any) => String(i.label).trim().replace(/^"|"$/g, ''))).toContain(c.completion.label);
    client.notify('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [{ text: source }] });
  });
});

describe.runIf(ready)('json: schemas from the document itself, local only', () => {
  let client: LeaseClient;
  let workspaceUri: string;

  beforeAll(async () => {
    client = new LeaseClient(stack.url, sessionId, 'json');
    workspaceUri = (await client.initialize()).ready.workspaceUri;
  }, INSTALL_TIMEOUT);

  afterAll(async () => {
    client?.control({ control: 'release', reason: 'stop' });
    await client?.closed;
  });

  it('validates a file against the relative $schema it names, read from disk', async () => {
    const file = 'config/service.json';
    const own = `${workspaceUri}/${file}`;
    client.notify('textDocument/didOpen', { textDocument: { uri: own, languageId: 'json', version: 1, text: readFileSync(join(workspace, file), 'utf8') } });
    const published = await client.waitFor((f) => f.method === 'textDocument/publishDiagnostics' && f.params.uri === own && f.params.diagnostics.length > 0);
    expect(published.params.diagnostics.map((d: any) => d.message)).toContain('Incorrect type. Expected "integer".');
  });

  it('never downloads an http(s) $schema: the server has to ask its client, and the broker declines', async () => {
    const remote = `${workspaceUri}/config/remote.json`;
    const text = '{ "$schema": "https://schemas.invalid/remote.json", "port": 1 }\n';
    client.notify('textDocument/didOpen', { textDocument: { uri: remote, languageId: 'json', version: 1, text } });
    const published = await client.waitFor((f) => f.method === 'textDocument/publishDiagnostics' && f.params.uri === remote && f.params.diagnostics.length > 0);
    // The text is the broker's answer to `vscode/content`, so no download was tried by the server.
    expect(published.params.diagnostics[0].message).toMatch(
      /Unable to load schema from 'https:\/\/schemas\.invalid\/remote\.json'.*Unhandled method vscode\/content/s,
    );
  });
});
