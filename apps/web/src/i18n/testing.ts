/** For unit tests: an isolated i18next instance with every catalog, no DOM and no global state. */
import { createInstance, type i18n as I18n } from 'i18next';
import { LOCALES, type Locale } from '@kandev/protocol';
import { CATALOGS, NAMESPACES } from './catalogs.js';
import type { Translate } from './format.js';

export async function testI18n(locale: Locale): Promise<I18n> {
  const instance = createInstance();
  await instance.init({
    resources: CATALOGS,
    lng: locale,
    fallbackLng: false,
    supportedLngs: [...LOCALES],
    lowerCaseLng: true,
    ns: [...NAMESPACES],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
    showSupportNotice: false,
  });
  return instance;
}

export async function testTranslate(locale: Locale, ns = 'lsp'): Promise<Translate> {
  const instance = await testI18n(locale);
  return instance.getFixedT(locale, ns) as unknown as Translate;
}
