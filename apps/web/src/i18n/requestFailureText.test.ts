import { describe, expect, it } from 'vitest';
import { testI18n } from './testing.js';
import { requestFailureText } from './requestFailureText.js';

describe("a failed request's sentence, from the locale catalogs", () => {
  it('a rename past the deadline, in every locale, with the language and the elapsed time in its words', async () => {
    const failure = { feature: 'rename', reason: 'timeout', deadlineMs: 2_000 } as const;
    const text = async (locale: 'en' | 'pt-pt' | 'zh-cn' | 'pseudo') => requestFailureText(failure, 'kotlin', (await testI18n(locale)).t, locale);
    expect(await text('en')).toBe('Rename: the Kotlin language server did not answer within 2 seconds. It may still be busy; try again in a moment.');
    expect(await text('pt-pt')).toBe(
      'Mudar o nome: o servidor de linguagem Kotlin não respondeu em 2 segundos. Pode ainda estar ocupado; tente de novo dentro de momentos.',
    );
    expect(await text('zh-cn')).toMatch(/^重命名：Kotlin 语言服务器未在 2 秒内响应/);
    expect(await text('pseudo')).toMatch(/^\[!! \[!! Ŕéñàɱé/);
  });

  it("an error with and without the server's word, and a lost connection", async () => {
    const { t } = await testI18n('en');
    expect(requestFailureText({ feature: 'definition', reason: 'error', detail: 'Index is corrupt' }, 'go', t, 'en')).toBe(
      'Go to definition failed: Index is corrupt',
    );
    expect(requestFailureText({ feature: 'hover', reason: 'error', detail: '' }, 'go', t, 'en')).toBe('Hover failed: the Go language server gave no reason.');
    expect(requestFailureText({ feature: 'references', reason: 'lost' }, 'go', t, 'en')).toBe(
      'Find references got no answer: the connection to the Go language server was lost.',
    );
  });
});
