import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { LanguageId } from '@kandev/protocol';
import {
  caretPosition,
  hoverRows,
  markers,
  openFile,
  placeCaret,
  expectProblemListed,
  runEditorAction,
  setCaret,
  suggestLabels,
  waitForLspState,
} from '../support/page.js';

/**
 * What the language matrix (languages-matrix*.test.ts) checks of each language against its real
 * server in Chromium. The matrix is two files so the two browser lanes of `npm test` share it: the
 * demo's languages in one session (languages-matrix.test.ts), and the languages whose server runs
 * the project, in a trusted task (languages-matrix-trusted.test.ts).
 */

export interface LanguageCase {
  language: LanguageId;
  file: string;
  /** The file's finding; absent for a file that must parse (a server that answers nothing in one that does not). */
  finding?: RegExp;
  /** Caret on `at` (+ offset), then the hover must read `expect`. */
  hover?: { at: string; offset: number; expect: RegExp };
  /**
   * Caret after `at` (+ offset), or at `line` (1-based, column 1) for a server that completes only on
   * an empty line, then completion must offer a label matching `label` (one label a line).
   */
  completion?: { at: string; offset: number; label: RegExp } | { line: number; label: RegExp };
  /** Caret on `at` (+ offset), F12: the caret lands on `line` of `path`. */
  definition?: { at: string; offset: number; path: string; line: number };
  /**
   * The finding is published and never pulled: the page sent the server no textDocument/diagnostic
   * (it was told pull diagnostics without dynamic registration, and offered none).
   */
  publishedOnly?: true;
}

/** `KANDEV_MATRIX_CASES=GraphQL,Fortran` runs only those cases (and none of the whole-demo tests). */
export const ONLY = process.env.KANDEV_MATRIX_CASES?.split(',').map((name) => name.trim());
export const selected = (name: string) => !ONLY || ONLY.includes(name);

/** The test's name: what the case checks. */
export const caseTitle = (name: string, c: LanguageCase) =>
  `${name}: ${c.file}${c.finding ? ' shows its finding in Problems and as a marker' : ' (no finding: it parses)'}${c.hover ? ', hover' : ''}${c.completion ? ', completion' : ''}${c.definition ? ', go to definition' : ''}${c.publishedOnly ? ', published and never pulled' : ''}`;

/** Only the markers the language's server painted (owner kandev-lsp.<language>.<generation>). */
export async function serverMarkers(page: Page, sessionId: string, path: string, language: LanguageId): Promise<string> {
  return (await markers(page, sessionId, path))
    .filter((m) => m.owner.startsWith(`kandev-lsp.${language}.`))
    .map((m) => m.message)
    .join('\n');
}

/** What the matrix sees on the page's sockets: methods the page sent, by language; documents with published diagnostics. */
export interface CaseWire {
  sent: Map<string, string[]>;
  published: Set<string>;
}

/** Opens the case's file: its finding in Problems and as a marker, then hover, completion and F12. */
export async function checkCase(page: Page, sessionId: string, c: LanguageCase, readyTimeout: number, heard: CaseWire): Promise<void> {
  const { sent, published } = heard;
  await openFile(page, c.file);
  await waitForLspState(page, c.language, 'ready', readyTimeout);
  // A file with no finding is checked once the server has read it: its (empty) diagnostics say so.
  if (!c.finding) await expect.poll(() => [...published].some((uri) => uri.endsWith(`/${c.file}`)), { timeout: 60_000 }).toBe(true);
  if (c.finding) {
    await expect.poll(() => serverMarkers(page, sessionId, c.file, c.language), { timeout: 90_000 }).toMatch(c.finding);
    // The same finding, listed in Problems under its file.
    await expectProblemListed(page, c.file, c.finding);
  }
  if (c.publishedOnly) {
    expect([...published].some((uri) => uri.endsWith(`/${c.file}`))).toBe(true);
    expect(sent.get(c.language) ?? []).not.toContain('textDocument/diagnostic');
  }

  if (c.hover) {
    await placeCaret(page, c.hover.at, c.hover.offset);
    await runEditorAction(page, 'editor.action.showHover');
    await expect.poll(async () => (await hoverRows(page)).join('\n'), { timeout: 30_000 }).toMatch(c.hover.expect);
    await page.keyboard.press('Escape');
  }
  if (c.completion) {
    if ('line' in c.completion) await setCaret(page, c.completion.line, 1);
    else await placeCaret(page, c.completion.at, c.completion.offset);
    await runEditorAction(page, 'editor.action.triggerSuggest');
    await expect.poll(async () => (await suggestLabels(page)).join('\n'), { timeout: 30_000 }).toMatch(c.completion.label);
    await page.keyboard.press('Escape');
  }
  if (c.definition) {
    await placeCaret(page, c.definition.at, c.definition.offset);
    await page.keyboard.press('F12');
    await page.locator(`[data-testid="editor-tab"][data-path="${c.definition.path}"][data-active="true"]`).waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await caretPosition(page)).lineNumber, { timeout: 30_000 }).toBe(c.definition.line);
  }
}
