import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LanguageId } from '@kandev/protocol';
import { screenshot } from '../support/app.js';
import { newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { openTaskEditor } from '../support/fakeEditor.js';
import { writeFiles } from '../support/files.js';
import {
  openFile,
  openSession,
  expectProblemListed,
  putSettings,
  publishedDiagnostics,
  sentMethodsByLanguage,
  startEditorStack,
  waitForLspState,
  withEditor,
} from '../support/page.js';
import { preinstallServers } from '../support/preinstalledServers.js';
import { copyDemoWorkspace, type RunningStack } from '../support/stack.js';
import { caseTitle, checkCase, type CaseWire, ONLY, selected, serverMarkers, type LanguageCase } from './languages-matrix-support.js';
import { metric } from './lease-support.js';

/**
 * Every language Kandev serves, against the server this machine really runs, in Chromium, in one
 * session on a copy of the demo workspace (plus a checked JavaScript file and an SCSS file): each
 * file's deliberate finding in Problems and as a Monaco marker, then hover, completion and go to
 * definition where the server offers them. The backend runs with its default lease cap; the last
 * tests hold every demo language open at once and reattach to the pull-model servers.
 *
 * The npm-installed servers (JSON, CSS and HTML; YAML; Bash; Dockerfile; ...) are already in the
 * task's HOME, as agentctl's install leaves them (preinstallServers: installing them is proven by the
 * integration files that start from an empty HOME), so agentctl starts them at once. Every case's
 * file is opened before the first case runs, so the servers start side by side while the first
 * cases are checked instead of one after another. The languages
 * whose server runs the project are checked in a trusted task by languages-matrix-trusted.test.ts
 * (a file of its own, so the two browser lanes share the matrix).
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const EXTRA_FILES: Record<string, string> = {
  // A JavaScript file TypeScript checks (// @ts-check): its JSDoc type is the deliberate finding.
  'web/app.js': [
    '// @ts-check',
    '/** Formats the greeting the page shows. */',
    'function greet(name) {',
    '  return `Hello, ${name}`;',
    '}',
    '',
    '/** @type {number} */',
    "const visits = greet('you');",
    "document.title = greet('Kandev') + visits;",
    '',
  ].join('\n'),
  'web/theme.scss': ['$accent: #336699;', '', '.banner {', '  color: $accent;', '  paddng: 1rem;', '}', ''].join('\n'),
  // Vim script that parses: vim-language-server answers definition only in a file it can parse.
  'vim/words.vim': [
    '" Counts the words of a line.',
    'function! s:CountWords(line) abort',
    '  return len(split(a:line))',
    'endfunction',
    '',
    "echo s:CountWords('one two three')",
    '',
  ].join('\n'),
};

const CASES: Record<string, LanguageCase> = {
  TypeScript: {
    language: 'typescript',
    file: 'src/main.ts',
    finding: /Type 'string' is not assignable to type 'number'/,
    hover: { at: "createGreeter('Hello')", offset: 2, expect: /createGreeter\(prefix: string\): Greeter/ },
    completion: { at: "greeter.greet('Kandev')", offset: 8, label: /^farewell$/m },
    definition: { at: "createGreeter('Hello')", offset: 2, path: 'src/greeter.ts', line: 8 },
  },
  JavaScript: {
    language: 'typescript',
    file: 'web/app.js',
    finding: /Type 'string' is not assignable to type 'number'/,
    hover: { at: "greet('Kandev')", offset: 1, expect: /function greet\(name: any\): string/ },
    completion: { at: 'document.title', offset: 11, label: /^title$/m },
    definition: { at: "greet('Kandev')", offset: 1, path: 'web/app.js', line: 3 },
  },
  Python: {
    language: 'python',
    file: 'app/main.py',
    finding: /Type "int" is not assignable to declared type "str"/,
    hover: { at: 'add_numbers(2, 3)', offset: 2, expect: /def add_numbers\(\s*first: int,\s*second: int\s*\) -> int/ },
    completion: { at: 'add_numbers(2, 3)', offset: 6, label: /^add_numbers$/m },
    definition: { at: 'add_numbers(2, 3)', offset: 2, path: 'app/util.py', line: 1 },
  },
  Go: {
    language: 'go',
    file: 'main.go',
    finding: /cannot use util\.Double\(2\)/,
    hover: { at: 'Double(21)', offset: 2, expect: /func (util\.)?Double\(n int\) int/ },
    completion: { at: 'util.Double(21)', offset: 7, label: /^Double$/m },
    definition: { at: 'Double(21)', offset: 2, path: 'util/util.go', line: 5 },
  },
  JSON: {
    language: 'json',
    file: 'config/app.json',
    finding: /Incorrect type\. Expected "integer"/,
    hover: { at: '"port"', offset: 2, expect: /TCP port the demo service listens on/ },
    completion: { at: '"debug"', offset: 1, label: /^"info"$/m },
  },
  YAML: {
    language: 'yaml',
    file: 'deploy/compose.yaml',
    finding: /Value is not accepted\. Valid values: "no", "always", "on-failure", "unless-stopped"/,
    hover: { at: 'restart:', offset: 2, expect: /When the container is started again after it stops/ },
    completion: { at: 'restart: sometimes', offset: 9, label: /^unless-stopped$/m },
  },
  CSS: {
    language: 'css',
    file: 'web/style.css',
    finding: /Unknown property: 'colr'/,
    hover: { at: 'max-width', offset: 2, expect: /constrain content width/i },
    completion: { at: 'margin: 0', offset: 4, label: /^margin$/m },
  },
  SCSS: {
    language: 'css',
    file: 'web/theme.scss',
    finding: /Unknown property: 'paddng'/,
    hover: { at: 'color: $accent', offset: 1, expect: /color/i },
    definition: { at: 'color: $accent', offset: 9, path: 'web/theme.scss', line: 1 },
  },
  HTML: {
    language: 'html',
    file: 'web/index.html',
    finding: /Unknown property: 'font-weigth'/,
    hover: { at: '<main>', offset: 2, expect: /The main element represents/ },
    completion: { at: '<main>', offset: 3, label: /^main$/m },
  },
  Bash: {
    language: 'shell',
    file: 'scripts/run.sh',
    finding: /Double quote to prevent globbing and word splitting/,
    hover: { at: 'announce $port', offset: 2, expect: /Prints where the service listens/ },
    completion: { at: 'announce $port', offset: 5, label: /^announce$/m },
    definition: { at: 'announce $port', offset: 2, path: 'scripts/run.sh', line: 6 },
  },
  Dockerfile: {
    language: 'dockerfile',
    file: 'Dockerfile',
    finding: /Unknown instruction: RUNN/,
    hover: { at: 'WORKDIR', offset: 2, expect: /working directory/i },
    completion: { at: 'WORKDIR', offset: 5, label: /^WORKDIR\b/m },
  },
  C: {
    language: 'cpp',
    file: 'native/checksum.c',
    finding: /incompatible type 'struct digest'/,
    hover: { at: 'checksum(bytes', offset: 2, expect: /struct digest checksum\(const unsigned char \*data, size_t length\)/ },
    completion: { at: 'd.sum - total', offset: 3, label: /^\s*sum$/m },
    definition: { at: 'checksum(bytes', offset: 2, path: 'native/checksum.c', line: 3 },
  },
  PHP: {
    language: 'php',
    file: 'php/Invoice.php',
    finding: /Unexpected '\}'\. Expected ';'/,
    hover: { at: 'with_tax(1000', offset: 2, expect: /function with_tax\(int \$net, int \$rate\): int/ },
    completion: { at: 'with_tax(1000', offset: 4, label: /^with_tax$/m },
    definition: { at: 'with_tax(1000', offset: 2, path: 'php/Invoice.php', line: 4 },
  },
  Prisma: {
    language: 'prisma',
    file: 'prisma/schema.prisma',
    finding: /Type "Postt" is neither a built-in type, nor refers to another model/,
    hover: { at: 'author   Author', offset: 10, expect: /model Author/ },
    completion: { at: 'title    String', offset: 10, label: /^String$/m },
    definition: { at: 'author   Author', offset: 10, path: 'prisma/schema.prisma', line: 6 },
  },
  Svelte: {
    language: 'svelte',
    file: 'svelte/Counter.svelte',
    finding: /Type 'number' is not assignable to type 'string'/,
    hover: { at: 'on:click={increment}', offset: 12, expect: /\(local function\) increment\(\): void/ },
    completion: { at: 'pressed {count}', offset: 9, label: /^count$/m },
    definition: { at: 'on:click={increment}', offset: 12, path: 'svelte/Counter.svelte', line: 6 },
  },
  // vim-language-server's definition answers nothing for a file that does not parse (its parser
  // gives up on the whole document: seen over stdio), and its only findings are parse errors: the
  // demo file shows the finding, a second file that parses the go to definition.
  Vim: {
    language: 'vim',
    file: 'vim/greet.vim',
    finding: /unexpected token: <EOL>/,
    hover: { at: "echo 'Hello", offset: 1, expect: /echoes the result of expressions/ },
    completion: { at: "strlen('demo')", offset: 3, label: /^strlen$/m },
  },
  'Vim (parses)': {
    language: 'vim',
    file: 'vim/words.vim',
    definition: { at: "CountWords('one", offset: 2, path: 'vim/words.vim', line: 2 },
  },
  Fortran: {
    language: 'fortran',
    file: 'fortran/area.f90',
    finding: /Variable "area" declared twice in scope/,
    hover: { at: 'circle_area(2.0)', offset: 2, expect: /FUNCTION circle_area\(r\)/ },
    completion: { at: 'circle_area(2.0)', offset: 4, label: /^circle_area$/m },
    definition: { at: 'circle_area(2.0)', offset: 2, path: 'fortran/area.f90', line: 5 },
  },
  // Herb offers neither completion nor definition; its hover documents the Rails helpers.
  ERB: {
    language: 'erb',
    file: 'erb/show.html.erb',
    finding: /Element `<p>` at \(5:3\) has its closing tag omitted/,
    hover: { at: 'link_to', offset: 2, expect: /Creates an anchor element of the given name/ },
  },
  // The hover documents a key from the local schema the file names (tombi runs offline). Tombi
  // completes keys on an empty line only; its definition leads from the `#:schema` comment to the
  // schema (it has none for a key). Its finding is published, not pulled: the client declares pull
  // diagnostics to it without dynamic registration (its ServerRule says why), so it never offers them.
  TOML: {
    language: 'toml',
    file: 'toml/service.toml',
    finding: /duplicate key: port/,
    hover: { at: 'host = ', offset: 1, expect: /The address the service binds/ },
    // The file's last line, empty and inside `[server]`: the schema's key not yet given.
    completion: { line: 10, label: /^workers$/m },
    // Its definition goes from the `#:schema` comment to the schema file it names.
    definition: { at: '#:schema ./service', offset: 12, path: 'toml/service.schema.json', line: 1 },
    publishedOnly: true,
  },
};

/** The demo's languages and the file of each that carries a finding. */
const DEMO = Object.values(CASES).flatMap((c) => (c.finding && !(c.file in EXTRA_FILES) ? [{ ...c, finding: c.finding }] : []));
const INSTALLED = ['json', 'yaml', 'shell', 'dockerfile', 'css', 'html', 'php', 'prisma', 'svelte', 'vim', 'erb', 'vue', 'astro', 'toml'] as const;
/** The servers that answer diagnostics only when pulled (textDocument/diagnostic). */
const PULL_MODEL: LanguageId[] = ['python', 'json', 'css', 'html'];
const DEMO_LANGUAGES = new Set(DEMO.map((c) => c.language)).size;

describe.runIf(run && Object.keys(CASES).some(selected))('every language against its real server in Chromium', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let sessionId: string;
  let work: string;
  let sent: Map<string, string[]>;
  let heard: CaseWire;

  // Only the markers the language's server painted (owner kandev-lsp.<language>.<generation>):
  // Monaco's own TypeScript and JSON workers mark these files too, and must not pass for it.
  const markerMessages = (path: string, language: LanguageId) => serverMarkers(page, sessionId, path, language);
  const tab = (path: string) => page.locator(`[data-testid="editor-tab"][data-path="${path}"]`);

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'kandev-e2e-matrix-'));
    const workspace = writeFiles(copyDemoWorkspace(), EXTRA_FILES);
    // No KANDEV_LSP_MAX_CONNECTIONS: the default cap (sized from memory) must hold the whole demo.
    stack = await startEditorStack();
    await putSettings(stack, { lsp_auto_start_languages: DEMO.map((c) => c.language), lsp_auto_install_languages: [...INSTALLED] });
    // Auto-install stays on: a server missing from the HOME would still be installed, the slow way.
    await preinstallServers(join(work, 'home'), [...new Set(Object.values(CASES).map((c) => c.language))]);
    ({ sessionId, browser, page } = await openTaskEditor(stack, { title: 'Every language', workspace, env: { HOME: join(work, 'home') } }));
    sent = sentMethodsByLanguage(page);
    heard = { sent, published: publishedDiagnostics(page) };
    // Every selected case's file, opened now: each language's server starts (auto-start) while the
    // cases before it are checked. Each case then opens its file again (its tab) and checks it.
    for (const [, c] of Object.entries(CASES).filter(([name]) => selected(name))) await openFile(page, c.file);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  for (const [name, c] of Object.entries(CASES).filter(([name]) => selected(name))) {
    const installed = (INSTALLED as readonly string[]).includes(c.language);
    // A server from npm (a Node program, cold on a loaded machine, maybe installed on the way if its copy was missing) has more time.
    it(caseTitle(name, c), () => checkCase(page, sessionId, c, installed ? 240_000 : 120_000, heard), installed ? 400_000 : 180_000);
  }

  it.skipIf(ONLY)(
    'the whole demo at once with the default lease cap: every demo language attached in one session, each finding in Problems',
    async () => {
      // Opened by the tests above; any not open yet (this test run alone) is opened from the tree.
      for (const c of DEMO) if ((await tab(c.file).count()) === 0) await openFile(page, c.file);
      const missing = async () => {
        const out: string[] = [];
        for (const c of DEMO) if (!c.finding.test(await markerMessages(c.file, c.language))) out.push(c.file);
        return out;
      };
      // Servers started by this test alone need their time; a refused one never shows its finding.
      await expect.poll(missing, { timeout: 240_000 }).toEqual([]);
      // Now, all at once: every demo file's finding listed and marked, every server attached, none refused.
      for (const c of DEMO) {
        await expectProblemListed(page, c.file, c.finding);
        expect(await markerMessages(c.file, c.language), c.file).toMatch(c.finding);
      }
      expect(await metric(stack.url, 'kandev_lsp_leases_active')).toBe(DEMO_LANGUAGES);
      expect(await metric(stack.url, 'kandev_lsp_leases_refused_total')).toBe(0);
      expect(await metric(stack.url, 'kandev_lsp_lease_slots')).toBeGreaterThanOrEqual(DEMO_LANGUAGES);
      await screenshot(page, 'whole-demo-desktop-light');
      // Each pull-model server (pyright, the VS Code JSON, CSS and HTML servers) was asked, on its own socket.
      for (const language of PULL_MODEL) expect(sent.get(language), language).toContain('textDocument/diagnostic');
    },
    300_000,
  );

  it.skipIf(ONLY)('reattach: a new tab resumes the pull-model servers from their replayed registrations and its first pulls repaint the findings', async () => {
    const reattachedBefore = await metric(stack.url, 'kandev_lsp_leases_reattached_total');
    await page.close();
    await expect.poll(() => metric(stack.url, 'kandev_lsp_leases_detached'), { timeout: 30_000 }).toBe(DEMO_LANGUAGES);
    const again = await (await newContext(browser.browser)).newPage();
    const sentAgain = sentMethodsByLanguage(again);
    await openSession(again, stack.url, sessionId);
    page = again;
    for (const c of DEMO.filter((d) => ['app/main.py', 'config/app.json', 'web/style.css', 'web/index.html'].includes(d.file))) {
      await openFile(page, c.file);
      await waitForLspState(page, c.language, 'ready');
      await expect.poll(() => markerMessages(c.file, c.language), { timeout: 60_000 }).toMatch(c.finding);
      await expectProblemListed(page, c.file, c.finding);
    }
    expect(await metric(stack.url, 'kandev_lsp_leases_reattached_total')).toBe(reattachedBefore + 4);
    for (const language of PULL_MODEL) expect(sentAgain.get(language), language).toContain('textDocument/diagnostic');
    expect([...sentAgain.values()].flat()).not.toContain('initialize');
  });

  it.skipIf(ONLY)('interFileDependencies (pyright): an edit in app/util.py changes the findings of app/main.py, which is open and untouched', async () => {
    await openFile(page, 'app/util.py');
    await waitForLspState(page, 'python', 'ready');
    // The helper now returns a str: main.py's str label becomes right, its int total wrong.
    await withEditor(page, (editor) => {
      const model = editor.getModel();
      const match = model.findMatches('-> int', false, false, true, null, false)[0];
      editor.setSelection({ ...match.range, startColumn: match.range.endColumn - 3 });
      editor.focus();
    });
    await page.keyboard.type('str');
    await expect.poll(() => markerMessages('app/main.py', 'python'), { timeout: 60_000 }).toMatch(/Type "str" is not assignable to declared type "int"/);
    expect(await markerMessages('app/main.py', 'python')).not.toMatch(/Type "int" is not assignable to declared type "str"/);
    await expectProblemListed(page, 'app/main.py', /Type "str" is not assignable to declared type "int"/);
  });
});
