/**
 * Settings in Chromium against the real backend: Editors language cards from GET /api/languages
 * (S05), the auto-start / auto-install toggles, the per-language LSP JSON (refused when invalid,
 * saved through PUT /api/settings when valid), the status location, Show status bar, and the UI
 * language, each checked against what GET /api/settings returns afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { LANGUAGE_IDS, type LanguageCatalogEntry, type UserSettings } from '@kandev/protocol';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';
import { startEditorStack } from '../support/page.js';
import type { RunningStack } from '../support/stack.js';

const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

describe.runIf(run)('Editors settings', () => {
  let stack: RunningStack;
  let browser: LaunchedBrowser;
  let context: BrowserContext;
  let page: Page;
  let catalog: Array<Partial<LanguageCatalogEntry>>;
  const puts: string[] = [];

  const settings = () => stack.api<UserSettings>('/api/settings');
  const card = (id: string) => page.locator(`[data-testid="language-card"][data-language="${id}"]`);

  beforeAll(async () => {
    // Its own snapshot of the built web app: a rebuild by another suite cannot swap assets mid-test.
    stack = await startEditorStack();
    const body = await stack.api<unknown>('/api/languages');
    catalog = Array.isArray(body) ? body : (body as { languages: Array<Partial<LanguageCatalogEntry>> }).languages;
    browser = await launchChromium();
    context = await newContext(browser.browser, 'desktop');
    page = await context.newPage();
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().endsWith('/api/settings')) puts.push(r.postData() ?? '');
    });
    await page.goto(`${stack.url}/?locale=en#/settings`);
    await page.getByTestId('settings-page').waitFor();
    await card('kotlin').waitFor();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await stack?.stop();
  });

  it('S05 every language card prints its install command, prerequisites and managed destination, visible without hover', async () => {
    expect(await page.getByTestId('language-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-language')))).toEqual([...LANGUAGE_IDS]);
    for (const entry of catalog.filter((e) => e.autoInstallable)) {
      const c = card(entry.id!);
      if (entry.installCommand) {
        expect(await c.getByTestId('install-command').isVisible()).toBe(true);
        expect(await c.getByTestId('install-command').innerText()).toBe(entry.installCommand);
      }
      for (const p of entry.prerequisites ?? []) expect(await c.getByTestId('prerequisites').innerText()).toContain(p);
      if (entry.managedDestination) expect(await c.getByTestId('managed-destination').innerText()).toBe(entry.managedDestination);
      // Printed, not hidden in a tooltip: no title attributes anywhere in the card.
      expect(await c.locator('[title]').count()).toBe(0);
    }
    const python = card('python');
    expect(await python.getByTestId('install-command').innerText()).toMatch(/^npm install .*pyright/);
    const box = await python.getByTestId('install-command').boundingBox();
    expect(box && box.width > 0 && box.height > 0).toBe(true);
  });

  it('Kotlin is experimental and manual-install only (no auto-install toggle), with its prerequisites shown', async () => {
    const kotlin = card('kotlin');
    expect(await kotlin.getByTestId('experimental-badge').innerText()).toBe('Experimental');
    expect(await kotlin.getByTestId('auto-install-toggle').count()).toBe(0);
    expect(await kotlin.getByTestId('no-auto-install').isVisible()).toBe(true);
    const kotlinEntry = catalog.find((e) => e.id === 'kotlin');
    for (const p of kotlinEntry?.prerequisites ?? []) expect(await kotlin.getByTestId('prerequisites').innerText()).toContain(p);
    expect(await card('go').getByTestId('experimental-badge').count()).toBe(0);
  });

  it('C/C++ (clangd) has no auto-install toggle and says how to install it with the package manager; Dockerfile lists its file names', async () => {
    const cpp = card('cpp');
    expect(await cpp.getByTestId('auto-install-toggle').count()).toBe(0);
    expect(await cpp.getByTestId('auto-start-toggle').count()).toBe(1);
    expect(await cpp.getByTestId('install-command').innerText()).toBe('apt-get install clangd');
    expect(await cpp.getByTestId('prerequisites').innerText()).toContain('compile_commands.json');
    expect(await card('dockerfile').getByTestId('language-extensions').innerText()).toMatch(/Dockerfile Containerfile/);
    expect(await card('yaml').getByTestId('auto-install-toggle').count()).toBe(1);
  });

  it('auto-start and auto-install toggles save through PUT /api/settings', async () => {
    await card('python').getByTestId('auto-install-toggle').check();
    await expect.poll(async () => (await settings()).lsp_auto_install_languages).toEqual(['python']);
    await card('kotlin').getByTestId('auto-start-toggle').check();
    await expect.poll(async () => (await settings()).lsp_auto_start_languages).toContain('kotlin');
    await card('go').getByTestId('auto-start-toggle').uncheck();
    await expect.poll(async () => (await settings()).lsp_auto_start_languages).not.toContain('go');
    expect(await card('python').getByTestId('auto-install-toggle').isChecked()).toBe(true);
  });

  it('the LSP JSON editor refuses invalid JSON with a clear message and sends nothing; valid JSON is saved as lsp_server_configs', async () => {
    const go = card('go');
    const before = puts.length;
    await go.getByTestId('lsp-config-input').fill('{"gopls": {"staticcheck": true}');
    await go.getByTestId('lsp-config-save').click();
    expect(await go.getByTestId('lsp-config-error').innerText()).toBe('This is not valid JSON, so nothing was saved. Check quotes, commas and brackets.');
    expect(await go.getByTestId('lsp-config-input').getAttribute('aria-invalid')).toBe('true');
    await go.getByTestId('lsp-config-input').fill('["not", "an", "object"]');
    await go.getByTestId('lsp-config-save').click();
    expect(await go.getByTestId('lsp-config-error').getAttribute('data-error')).toBe('notObject');
    await page.waitForTimeout(300);
    expect(puts.length).toBe(before);
    expect((await settings()).lsp_server_configs.go).toBeUndefined();

    await go.getByTestId('lsp-config-input').fill('{"gopls": {"staticcheck": true, "hints": {"assignVariableTypes": true}}}');
    await go.getByTestId('lsp-config-save').click();
    await go.getByTestId('lsp-config-saved').waitFor();
    expect((await settings()).lsp_server_configs.go).toEqual({ gopls: { staticcheck: true, hints: { assignVariableTypes: true } } });
    expect(JSON.parse(puts.at(-1)!)).toEqual({ lsp_server_configs: { go: { gopls: { staticcheck: true, hints: { assignVariableTypes: true } } } } });

    // Another language's config leaves this one alone; emptying deletes it.
    await card('python').getByTestId('lsp-config-input').fill('{"python": {"analysis": {"typeCheckingMode": "strict"}}}');
    await card('python').getByTestId('lsp-config-save').click();
    await card('python').getByTestId('lsp-config-saved').waitFor();
    expect(Object.keys((await settings()).lsp_server_configs).sort()).toEqual(['go', 'python']);
    await go.getByTestId('lsp-config-input').fill('');
    await go.getByTestId('lsp-config-save').click();
    await expect.poll(async () => Object.keys((await settings()).lsp_server_configs)).toEqual(['python']);
  });

  it('status location and Show status bar are saved', async () => {
    await page.getByTestId('settings-status-location').selectOption('status_bar');
    await expect.poll(async () => (await settings()).lsp_status_location).toBe('status_bar');
    await page.getByTestId('settings-show-status-bar').uncheck();
    await expect.poll(async () => (await settings()).show_status_bar).toBe(false);
    expect(await page.getByTestId('status-bar').count()).toBe(0);
    await page.getByTestId('settings-show-status-bar').check();
    await expect.poll(async () => (await settings()).show_status_bar).toBe(true);
    await page.getByTestId('status-bar').waitFor();
  });

  it('the UI language is saved, applied at once, and used after a reload (pt-pt, then zh-cn)', async () => {
    await page.getByTestId('settings-locale').selectOption('pt-pt');
    await expect.poll(async () => (await settings()).locale).toBe('pt-pt');
    await expect.poll(() => page.locator('.settings-page h1').innerText()).toBe('Definições');
    expect(await card('kotlin').getByTestId('experimental-badge').innerText()).toBe('Experimental');
    expect(await card('go').locator('label[for="auto-install-go"]').innerText()).toBe('Instalar automaticamente quando estiver em falta');

    await page.goto(`${stack.url}/#/settings`);
    await page.reload();
    await expect.poll(() => page.locator('.settings-page h1').innerText(), { timeout: 30_000 }).toBe('Definições');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('pt-PT');

    await page.getByTestId('settings-locale').selectOption('zh-cn');
    await expect.poll(() => page.locator('.settings-page h1').innerText()).toBe('设置');
    expect(await card('kotlin').getByTestId('experimental-badge').innerText()).toBe('实验性');
    expect(await card('go').getByTestId('lsp-config-save').innerText()).toBe('保存服务器设置');
    await card('go').getByTestId('lsp-config-input').fill('{oops');
    await card('go').getByTestId('lsp-config-save').click();
    expect(await card('go').getByTestId('lsp-config-error').innerText()).toBe('这不是有效的 JSON，因此未保存任何内容。请检查引号、逗号和括号。');
    expect((await settings()).locale).toBe('zh-cn');
    await page.getByTestId('settings-locale').selectOption('en');
    await expect.poll(() => page.locator('.settings-page h1').innerText()).toBe('Settings');
  });
});
