import type { Locale } from '@kandev/protocol';
import enCommon from '../locales/en/common.json';
import enFaults from '../locales/en/faults.json';
import enLsp from '../locales/en/lsp.json';
import pseudoCommon from '../locales/pseudo/common.json';
import pseudoFaults from '../locales/pseudo/faults.json';
import pseudoLsp from '../locales/pseudo/lsp.json';
import ptCommon from '../locales/pt-pt/common.json';
import ptFaults from '../locales/pt-pt/faults.json';
import ptLsp from '../locales/pt-pt/lsp.json';
import zhCommon from '../locales/zh-cn/common.json';
import zhFaults from '../locales/zh-cn/faults.json';
import zhLsp from '../locales/zh-cn/lsp.json';

/**
 * Catalog namespaces: `common` for the app shell, `lsp` for language-server status copy, `faults`
 * for a crashed server's restart and last output.
 */
export const NAMESPACES = ['common', 'lsp', 'faults'] as const;
export type Namespace = (typeof NAMESPACES)[number];

export type Catalog = Record<Namespace, Record<string, unknown>>;

export const CATALOGS: Record<Locale, Catalog> = {
  en: { common: enCommon, lsp: enLsp, faults: enFaults },
  pseudo: { common: pseudoCommon, lsp: pseudoLsp, faults: pseudoFaults },
  'pt-pt': { common: ptCommon, lsp: ptLsp, faults: ptFaults },
  'zh-cn': { common: zhCommon, lsp: zhLsp, faults: zhFaults },
};

/** i18next language tags of our locales (BCP 47 spelling, as html[lang] wants it). */
export const LANGUAGE_TAGS: Record<Locale, string> = { en: 'en', pseudo: 'en-XA', 'pt-pt': 'pt-PT', 'zh-cn': 'zh-CN' };
