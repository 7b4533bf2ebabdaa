import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ACCESS_PAGE_CATALOGS, accessPageLocale, renderAccessPage } from './accessPage.js';

// The generator is a plain Node script; the test runs exactly that code (as the web's pseudo test does).
const { pseudoCatalog } = (await import(new URL('../../../../scripts/pseudo-locale.mjs', import.meta.url).href)) as {
  pseudoCatalog: (value: unknown) => unknown;
};

describe('access page', () => {
  it('has every key in every locale, and the pseudo catalog is generated from English', () => {
    const keys = Object.keys(ACCESS_PAGE_CATALOGS.en as object).sort();
    for (const copy of Object.values(ACCESS_PAGE_CATALOGS)) expect(Object.keys(copy).sort()).toEqual(keys);
    const pseudoFile = readFileSync(new URL('./accessPage/pseudo.json', import.meta.url), 'utf8');
    expect(pseudoFile).toBe(`${JSON.stringify(pseudoCatalog(ACCESS_PAGE_CATALOGS.en), null, 2)}\n`);
  });

  it('picks the language from ?locale=, then Accept-Language, then English', () => {
    expect(accessPageLocale('zh-cn', 'pt-PT')).toBe('zh-cn');
    expect(accessPageLocale(null, 'pt-PT,pt;q=0.9,en;q=0.8')).toBe('pt-pt');
    expect(accessPageLocale(null, 'zh-CN')).toBe('zh-cn');
    expect(accessPageLocale('klingon', 'fr-FR, de')).toBe('en');
  });

  it('says how to get the link, with the literals as code and the reader-controlled host escaped', () => {
    const page = renderAccessPage('pt-pt', 'http://127.0.0.1:7420"><script>');
    expect(page).toContain('<html lang="pt-PT">');
    expect(page).toContain('O Kandev precisa da ligação de acesso');
    expect(page).toContain('<code>npm start</code>');
    expect(page).toContain('<code>KANDEV_TOKEN</code>');
    expect(page).toContain('<code>access-token</code>');
    expect(page).not.toContain('<script>');
    expect(page).not.toMatch(/\{\{\w+\}\}/);
  });
});
