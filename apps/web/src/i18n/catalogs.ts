import type { Locale } from '@kandev/protocol';
import enCommon from '../locales/en/common.json';
import enLsp from '../locales/en/lsp.json';
import pseudoCommon from '../locales/pseudo/common.json';
import pseudoLsp from '../locales/pseudo/lsp.json';
import ptCommon from '../locales/pt-pt/common.json';
import ptLsp from '../locales/pt-pt/lsp.json';
import zhCommon from '../locales/zh-cn/common.json';
import zhLsp from '../locales/zh-cn/lsp.json';
import enTrust from '../locales/en/trust.json';
import pseudoTrust from '../locales/pseudo/trust.json';
import ptTrust from '../locales/pt-pt/trust.json';
import zhTrust from '../locales/zh-cn/trust.json';

/** Catalog namespaces: `common` for the app shell, `lsp` for language-server status copy, `trust` for workspace trust. */
export const NAMESPACES = ['common', 'lsp', 'trust'] as const;
export type Namespace = (typeof NAMESPACES)[number];

export type Catalog = Record<Namespace, Record<string, unknown>>;

export const CATALOGS: Record<Locale, Catalog> = {
  en: { common: enCommon, lsp: enLsp, trust: enTrust },
  pseudo: { common: pseudoCommon, lsp: pseudoLsp, trust: pseudoTrust },
  'pt-pt': { common: ptCommon, lsp: ptLsp, trust: ptTrust },
  'zh-cn': { common: zhCommon, lsp: zhLsp, trust: zhTrust },
};

/** i18next language tags of our locales (BCP 47 spelling, as html[lang] wants it). */
export const LANGUAGE_TAGS: Record<Locale, string> = { en: 'en', pseudo: 'en-XA', 'pt-pt': 'pt-PT', 'zh-cn': 'zh-CN' };
