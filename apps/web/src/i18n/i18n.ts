import { isLanguageId, LOCALES, type Locale } from '@kandev/protocol';
import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { StatusMessage } from '../lib/lsp/status.js';
import { CATALOGS, LANGUAGE_TAGS, NAMESPACES } from './catalogs.js';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** Initializes i18next with every catalog bundled (they are small); English is the fallback. */
export async function initI18n(locale: Locale): Promise<I18n> {
  await i18next.use(initReactI18next).init({
    resources: CATALOGS,
    lng: locale,
    fallbackLng: 'en',
    supportedLngs: [...LOCALES],
    lowerCaseLng: true,
    ns: [...NAMESPACES],
    defaultNS: 'common',
    interpolation: { escapeValue: false },
    returnNull: false,
    // i18next 25 otherwise writes a promotion of its vendor's service to every visitor's console.
    showSupportNotice: false,
  });
  document.documentElement.lang = LANGUAGE_TAGS[locale];
  return i18next;
}

export async function setLocale(locale: Locale): Promise<void> {
  await i18next.changeLanguage(locale);
  document.documentElement.lang = LANGUAGE_TAGS[locale];
}

/** The `locale` sent in `initialize`: a BCP 47 tag a server knows (the pseudo locale is English to it). */
export function serverLocale(language: string | undefined): string | undefined {
  if (!isLocale(language)) return undefined;
  return language === 'pseudo' ? 'en' : LANGUAGE_TAGS[language];
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * Person-facing text of an LSP status message. Catalog keys are localized with the language's
 * display name; server and installer text is shown as written. Nothing else ever reaches a person.
 */
export function statusMessageText(t: Translate, message: StatusMessage): string {
  if ('text' in message) return message.text;
  const params: Record<string, unknown> = { ...message.params };
  if (isLanguageId(params.language)) params.language = t(`languages.${params.language}`, { ns: 'lsp' });
  return t(message.key, { ns: 'lsp', ...params });
}
