import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot } from '../support/app.js';
import type { LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { openTaskEditor } from '../support/fakeEditor.js';
import { writeFiles } from '../support/files.js';
import { openFile, startEditorStack, withEditor } from '../support/page.js';
import { copyDemoWorkspace, type RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

/** Files of languages no descriptor serves, written into the demo copy. */
const NEIGHBOURS: Record<string, string> = {
  'notes/guide.md': ['# Guide', '', 'Plain words here.', ''].join('\n'),
  'notes/Main.java': ['public class Main {', '  int count;', '}', ''].join('\n'),
  'notes/settings.ini': ['; where the demo listens', '[server]', 'port = 8080', ''].join('\n'),
  'notes/report.sql': ['SELECT total', 'FROM orders;', ''].join('\n'),
};

/** Each file's Monaco language, a keyword of it and a plain word that must be coloured apart. */
const NEIGHBOUR_CASES: Record<string, { language: string; keyword: string; plain: string }> = {
  'notes/guide.md': { language: 'markdown', keyword: '# Guide', plain: 'Plain words here.' },
  'notes/Main.java': { language: 'java', keyword: 'public', plain: 'Main' },
  'notes/settings.ini': { language: 'ini', keyword: '; where the demo listens', plain: 'port = 8080' },
  'notes/report.sql': { language: 'sql', keyword: 'SELECT', plain: 'total' },
};

/** The assets a page fetched, by file name (hash and folder dropped). */
const fetched = (urls: string[]) => urls.map((u) => new URL(u).pathname.split('/').pop()!);
const isTextmateAsset = (name: string) => /^(onig|textmate|prisma)[-.]/.test(name);

/**
 * Syntax colour from the language descriptors, in Chromium: a Monarch language (TypeScript) is
 * coloured without fetching any TextMate part; a language Monaco has no grammar for (Prisma) is
 * coloured by its TextMate grammar, whose engine and grammar arrive only when its file opens.
 * No language server runs here (auto-start off): the colours are the editor's own.
 */
describe.runIf(run)('syntax colour from the language descriptors', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  const urls: string[] = [];

  /** Distinct Monaco token classes on the visible lines, and the text of the spans of `word`. */
  const tokenClasses = (p: Page, word: string) =>
    p.evaluate((w) => {
      const spans = [...document.querySelectorAll('[data-testid="editor"] .view-lines span span')];
      const classes = new Set(spans.map((s) => s.className));
      const wordClass = spans.find((s) => s.textContent?.trim() === w)?.className ?? '';
      const plainClass = spans.find((s) => s.textContent?.trim() === '{')?.className ?? '';
      return {
        distinct: classes.size,
        wordClass,
        plainClass,
        wordColour: wordClass ? getComputedStyle(spans.find((s) => s.className === wordClass)!).color : '',
      };
    }, word);

  beforeAll(async () => {
    stack = await startEditorStack();
    ({ browser, page } = await openTaskEditor(stack, { title: 'Highlighting', workspace: writeFiles(copyDemoWorkspace(), NEIGHBOURS) }));
    page.on('request', (r) => urls.push(r.url()));
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('TypeScript is coloured by its Monarch grammar and fetches no TextMate part', async () => {
    await openFile(page, 'src/main.ts');
    await expect.poll(async () => (await tokenClasses(page, 'import')).distinct, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    expect(fetched(urls).filter(isTextmateAsset)).toEqual([]);
    expect(fetched(urls).some((n) => n.startsWith('typescript-'))).toBe(true);
  });

  it('Prisma is coloured by its TextMate grammar, fetched with its engine when its file opens', async () => {
    await openFile(page, 'prisma/schema.prisma');
    // `model` is a keyword: its colour is not the plain text colour of `{`.
    await expect.poll(async () => (await tokenClasses(page, 'model')).wordClass, { timeout: 60_000 }).toMatch(/mtk/);
    const tokens = await tokenClasses(page, 'model');
    expect(tokens.wordClass).not.toBe(tokens.plainClass);
    expect(tokens.distinct).toBeGreaterThanOrEqual(3);
    const names = fetched(urls);
    expect(names.some((n) => n.startsWith('onig') && n.endsWith('.wasm'))).toBe(true);
    expect(names.some((n) => n.startsWith('prisma-') && n.endsWith('.js'))).toBe(true);
    await screenshot(page, 'highlighting-prisma-desktop-light');
  });

  it('ERB is coloured by its TextMate grammar (with its HTML and Ruby), fetched when its file opens', async () => {
    await openFile(page, 'erb/show.html.erb');
    expect(await withEditor(page, (editor) => editor.getModel().getLanguageId() as string)).toBe('erb');
    // Markup, tag names, attributes, ERB delimiters and Ruby each get a colour of their own.
    await expect.poll(async () => (await tokenClasses(page, 'article')).distinct, { timeout: 60_000 }).toBeGreaterThanOrEqual(4);
    expect(fetched(urls).some((n) => n.startsWith('erb-') && n.endsWith('.js'))).toBe(true);
    await screenshot(page, 'highlighting-erb-desktop-light');
  });
  it('TOML is coloured by its TextMate grammar, fetched when its file opens', async () => {
    await openFile(page, 'toml/service.toml');
    expect(await withEditor(page, (editor) => editor.getModel().getLanguageId() as string)).toBe('toml');
    // The class of the first span whose text holds `text` (the grammar splits quotes and `#` off).
    const classOf = (text: string) =>
      page.evaluate(
        (text) =>
          [...document.querySelectorAll('[data-testid="editor"][data-path="toml/service.toml"] .view-lines span span')]
            .map((s) => ({ text: (s.textContent ?? '').replace(/\u00a0/g, ' '), className: s.className }))
            .find((s) => s.text.includes(text))?.className ?? '',
        text,
      );
    // A key, its string value and a comment each get a colour of their own once the grammar arrives.
    const classes = async () => new Set([await classOf('title'), await classOf('Kandev demo'), await classOf('deliberate finding')]).size;
    await expect.poll(classes, { timeout: 60_000 }).toBe(3);
    expect(fetched(urls).some((n) => n.startsWith('toml-') && n.endsWith('.js'))).toBe(true);
    await screenshot(page, 'highlighting-toml-desktop-light');
  });

  // Component files: the script block is coloured by the TypeScript grammar the descriptor embeds.
  for (const [path, keyword, shot] of [
    ['vue/Counter.vue', 'function', 'highlighting-vue-desktop-light'],
    ['astro/Greeting.astro', 'function', 'highlighting-astro-desktop-light'],
  ] as const) {
    it(`${path} is coloured by its TextMate grammar, its script block by the embedded TypeScript one`, async () => {
      await openFile(page, path);
      await expect.poll(async () => (await tokenClasses(page, keyword)).wordClass, { timeout: 60_000 }).toMatch(/mtk/);
      const tokens = await tokenClasses(page, keyword);
      expect(tokens.wordClass).not.toBe(tokens.plainClass);
      expect(tokens.distinct).toBeGreaterThanOrEqual(4);
      await screenshot(page, shot);
    });
  }

  // The other languages whose descriptors name a TextMate grammar: a keyword, a comment and a name
  // each get a colour of their own once the grammar (its chunk named by the descriptor) arrives.
  for (const [path, grammar, samples] of [
    ['svelte/Counter.svelte', 'svelte', ['function', 'How many times', 'increment']],
    ['vim/greet.vim', 'viml', ['endfunction', 'Greets someone', 'Hello']],
    ['fortran/area.f90', 'fortran-free-form', ['implicit', 'Area of a circle', 'circle_area']],
  ] as const) {
    it(`${path} is coloured by its descriptor's TextMate grammar, fetched when its file opens`, async () => {
      await openFile(page, path);
      // The class of the first span of this file's editor whose text holds `text`.
      const classOf = (text: string) =>
        page.evaluate(
          ({ path, text }) =>
            [...document.querySelectorAll(`[data-testid="editor"][data-path="${path}"] .view-lines span span`)]
              .map((s) => ({ text: (s.textContent ?? '').replace(/\u00a0/g, ' '), className: s.className }))
              .find((s) => s.text.includes(text))?.className ?? '',
          { path, text },
        );
      const distinct = async () => new Set(await Promise.all(samples.map(classOf))).size;
      await expect.poll(distinct, { timeout: 60_000 }).toBe(samples.length);
      expect(fetched(urls).some((n) => n.startsWith(`${grammar}-`) && n.endsWith('.js'))).toBe(true);
    });
  }

  // Languages Monaco has a Monarch grammar for and no descriptor serves: Monaco's own registration
  // names their extensions and colours them (a keyword's colour is not a plain word's).
  for (const [path, { language, keyword, plain }] of Object.entries(NEIGHBOUR_CASES)) {
    it(`${path} (no language server) opens as ${language}, coloured by Monaco's own grammar`, async () => {
      await openFile(page, path);
      expect(await withEditor(page, (editor) => editor.getModel().getLanguageId() as string)).toBe(language);
      // The class of the span that reads `text` (Monaco renders spaces as no-break spaces).
      const classOf = (text: string) =>
        page.evaluate(
          ({ path, text }) =>
            [...document.querySelectorAll(`[data-testid="editor"][data-path="${path}"] .view-lines span span`)]
              .map((s) => ({ text: (s.textContent ?? '').replace(/\u00a0/g, ' ').trim(), className: s.className }))
              .find((s) => s.text === text)?.className ?? '',
          { path, text },
        );
      await expect.poll(() => classOf(keyword), { timeout: 30_000 }).toMatch(/mtk/);
      // The grammar arrives lazily: the keyword stands apart once its line is coloured.
      await expect.poll(async () => (await classOf(keyword)) !== (await classOf(plain)), { timeout: 30_000 }).toBe(true);
    });
  }

  it('each file shows the icon its descriptor names', async () => {
    const icon = (path: string) => page.locator(`[data-testid="tree-node"][data-path="${path}"] .file-icon`).getAttribute('class');
    for (const path of [
      'svelte/Counter.svelte',
      'vim/greet.vim',
      'fortran/area.f90',
      'graphql/books.graphql',
      'php/Invoice.php',
      'vue/Counter.vue',
      'astro/Greeting.astro',
      'toml/service.toml',
    ])
      await openFile(page, path);
    expect(await icon('graphql/books.graphql')).toContain('tone-rs');
    expect(await icon('erb/show.html.erb')).toContain('tone-rs');
    expect(await icon('svelte/Counter.svelte')).toContain('tone-rs');
    expect(await icon('vue/Counter.vue')).toContain('tone-go');
    expect(await icon('astro/Greeting.astro')).toContain('tone-rs');
    expect(await icon('vim/greet.vim')).toContain('tone-go');
    expect(await icon('fortran/area.f90')).toContain('tone-py');
    expect(await icon('prisma/schema.prisma')).toContain('tone-config');
    // A file no language served was drawn as data (tone-json).
    expect(await icon('toml/service.toml')).toContain('tone-config');
    expect(await icon('php/Invoice.php')).toContain('tone-kt');
    expect(await icon('src/main.ts')).toContain('tone-ts');
  });
});
