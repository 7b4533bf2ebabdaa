import { BadInputCloseCode, CloseCode, LANGUAGE_IDS, LOCALES, ReservedCloseCode } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import { CATALOGS, NAMESPACES } from './catalogs.js';

function flatten(value: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out.set(key, v);
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv);
  }
  return out;
}

const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('locale catalogs', () => {
  it.each(LOCALES.filter((l) => l !== 'en'))('%s has exactly the English keys, each with the same placeholders', (locale) => {
    for (const ns of NAMESPACES) {
      const en = flatten(CATALOGS.en[ns]);
      const other = flatten(CATALOGS[locale][ns]);
      expect([...other.keys()].sort()).toEqual([...en.keys()].sort());
      for (const [key, text] of en) {
        expect(placeholders(other.get(key) as string), `${locale}/${ns}:${key}`).toEqual(placeholders(text));
        expect((other.get(key) as string).trim()).not.toBe('');
      }
    }
  });

  // The codes come from the protocol, so a code added there without copy fails here. A normal
  // close (1000) is the end the page asked for and never shows a message.
  const SHOWN_CLOSE_CODES = Object.values(CloseCode).filter((code) => code !== CloseCode.Normal);

  it.each(SHOWN_CLOSE_CODES)('has copy for close code %i, whatever the language', async (code) => {
    const { closeMessageKey } = await import('../lib/lsp/status.js');
    const lsp = flatten(CATALOGS.en.lsp);
    expect(lsp.has(`close.${code}`), `close.${code}`).toBe(true);
    for (const language of LANGUAGE_IDS) expect(lsp.has(closeMessageKey(code, language)), `${language} ${code}`).toBe(true);
  });

  it('has a generic connection-lost message for a reserved or unknown code', async () => {
    const { closeMessageKey } = await import('../lib/lsp/status.js');
    const lsp = flatten(CATALOGS.en.lsp);
    expect(lsp.has('close.connectionLost')).toBe(true);
    for (const code of [...Object.values(ReservedCloseCode), ...Object.values(BadInputCloseCode), 4999]) {
      expect(closeMessageKey(code, 'typescript')).toBe('close.connectionLost');
    }
  });

  it('has a label for every LSP state, copy for every readiness step and guidance, and one/other unit forms', async () => {
    const { LSP_STATES, GUIDANCE } = await import('../lib/lsp/status.js');
    const lsp = flatten(CATALOGS.en.lsp);
    for (const state of LSP_STATES) expect(lsp.has(`state.${state}`), state).toBe(true);
    for (const step of ['off', 'connecting', 'installing', 'installed', 'awaitingInitialize', 'synchronizing', 'ready', 'reconnecting', 'stopping']) {
      expect(lsp.has(`readiness.${step}`), step).toBe(true);
    }
    for (const g of GUIDANCE) expect(lsp.has(`guidance.${g}`), g).toBe(true);
    for (const unit of ['seconds', 'minutes', 'hours']) for (const form of ['one', 'other']) expect(lsp.has(`elapsed.${unit}.${form}`)).toBe(true);
    expect(lsp.has('notice.longInitializeKotlin') && lsp.has('notice.longInitialize')).toBe(true);
  });

  it('S41 the Kotlin long-initialize notice names Gradle in every locale; no copy promises an ETA', () => {
    for (const locale of LOCALES) {
      const lsp = flatten(CATALOGS[locale].lsp);
      expect(lsp.get('notice.longInitializeKotlin'), locale).toMatch(locale === 'pseudo' ? /Ĝŕàđĺé/ : /Gradle/);
      for (const [key, text] of lsp) expect(text, `${locale}:${key}`).not.toMatch(/remaining|\bETA\b|restante|剩余/i);
    }
  });

  it('S47 copy for finished or absent server work never claims the project is indexed', () => {
    for (const locale of LOCALES) {
      const lsp = flatten(CATALOGS[locale].lsp);
      for (const key of ['progress.finished', 'progress.finishedUntitled', 'progress.none'])
        expect(lsp.get(key), `${locale}:${key}`).not.toMatch(/\bindexed\b|indexad|已索引|索引完成/i);
    }
  });
});

describe('catalog keys used by the LSP layer', () => {
  it('every status message key in src/lib/lsp exists in the lsp catalog', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = join(import.meta.dirname, '../lib/lsp');
    const keys = new Set<string>();
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      for (const m of readFileSync(join(dir, file), 'utf8').matchAll(/key: '([\w.]+)'/g)) keys.add(m[1] as string);
    }
    expect(keys.size).toBeGreaterThan(5);
    const lsp = flatten(CATALOGS.en.lsp);
    for (const key of keys) expect(lsp.has(key), key).toBe(true);
  });
});

describe('server locale', () => {
  it('sends BCP 47 tags to servers, English for the pseudo locale', async () => {
    const { serverLocale } = await import('./i18n.js');
    expect(serverLocale('pt-pt')).toBe('pt-PT');
    expect(serverLocale('zh-cn')).toBe('zh-CN');
    expect(serverLocale('pseudo')).toBe('en');
    expect(serverLocale('xx')).toBeUndefined();
  });
});
