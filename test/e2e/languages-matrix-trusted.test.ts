import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { openFile, openSession, putSettings, publishedDiagnostics, sentMethodsByLanguage, startEditorStack } from '../support/page.js';
import { preinstallServers } from '../support/preinstalledServers.js';
import { copyDemoWorkspace, type RunningStack } from '../support/stack.js';
import { caseTitle, checkCase, type CaseWire, selected, type LanguageCase } from './languages-matrix-support.js';

/**
 * The language matrix's second half (the first is languages-matrix.test.ts): languages whose
 * server runs the repository's code as soon as it reads its project (their
 * untrusted rule refuses to start them in the demo): checked in a task whose tools are trusted.
 */
const TRUSTED_CASES: Record<string, LanguageCase> = {
  GraphQL: {
    language: 'graphql',
    file: 'graphql/books.graphql',
    finding: /Cannot query field "isbn" on type "Book"/,
    hover: { at: 'author {', offset: 2, expect: /Book\.author: Author!/ },
    completion: { at: 'name', offset: 2, label: /^name$/m },
    definition: { at: 'author {', offset: 2, path: 'graphql/schema.graphql', line: 5 },
  },
  // The demo has a tsconfig.json, whose Vue plugins vue-language-server would load; astro-ls loads
  // the workspace's prettier and integrations.
  Vue: {
    language: 'vue',
    file: 'vue/Counter.vue',
    finding: /Type 'number' is not assignable to type 'string'/,
    hover: { at: 'increment(1)', offset: 2, expect: /function increment\(step: number\): number/ },
    completion: { at: 'count += step', offset: 4, label: /^count$/m },
    definition: { at: 'increment(1)', offset: 2, path: 'vue/Counter.vue', line: 6 },
  },
  Astro: {
    language: 'astro',
    file: 'astro/Greeting.astro',
    finding: /Type 'string' is not assignable to type 'number'/,
    hover: { at: 'shout(visitor);', offset: 2, expect: /function shout\(name: string\): string/ },
    completion: { at: 'shout(visitor);', offset: 3, label: /^shout$/m },
    definition: { at: 'shout(visitor);', offset: 2, path: 'astro/Greeting.astro', line: 3 },
  },
};

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

describe.runIf(run && Object.keys(TRUSTED_CASES).some(selected))('languages whose server runs the project, in a trusted task, in Chromium', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let page: Page;
  let sessionId: string;
  let work: string;
  let heard: CaseWire;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'kandev-e2e-matrix-trusted-'));
    stack = await startEditorStack();
    const languages = Object.values(TRUSTED_CASES).map((c) => c.language);
    await putSettings(stack, { lsp_auto_start_languages: languages, lsp_auto_install_languages: languages });
    // Their servers, already in the HOME as agentctl's install leaves them (installing them is proven
    // by the integration files trust-graphql, trust-vue and trust-astro, from an empty HOME).
    await preinstallServers(join(work, 'home'), languages);
    const env = { HOME: join(work, 'home') };
    const task = await stack.createTask({ title: 'Trusted languages', workspace: copyDemoWorkspace(), env });
    await stack.api(`/api/tasks/${task.id}`, { method: 'PATCH', body: { trustWorkspaceTools: true } });
    sessionId = (await stack.startSession(task.id)).id;
    browser = await launchChromium();
    page = await (await newContext(browser.browser)).newPage();
    heard = { sent: sentMethodsByLanguage(page), published: publishedDiagnostics(page) };
    await openSession(page, stack.url, sessionId);
    // Every selected case's file, opened now: the servers start side by side while the first case is checked.
    for (const [, c] of Object.entries(TRUSTED_CASES).filter(([name]) => selected(name))) await openFile(page, c.file);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  for (const [name, c] of Object.entries(TRUSTED_CASES).filter(([name]) => selected(name))) {
    it(caseTitle(name, c), () => checkCase(page, sessionId, c, 240_000, heard), 400_000);
  }
});
