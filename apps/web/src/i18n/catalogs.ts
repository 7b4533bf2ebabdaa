import type { Locale } from '@kandev/protocol';
import enCommon from '../locales/en/common.json';
import enEditing from '../locales/en/editing.json';
import enLsp from '../locales/en/lsp.json';
import pseudoCommon from '../locales/pseudo/common.json';
import pseudoEditing from '../locales/pseudo/editing.json';
import pseudoLsp from '../locales/pseudo/lsp.json';
import ptCommon from '../locales/pt-pt/common.json';
import ptEditing from '../locales/pt-pt/editing.json';
import ptLsp from '../locales/pt-pt/lsp.json';
import zhCommon from '../locales/zh-cn/common.json';
import zhEditing from '../locales/zh-cn/editing.json';
import zhLsp from '../locales/zh-cn/lsp.json';

/** Catalog namespaces: `common` for the app shell, `lsp` for language-server status copy, `editing` for rename, code actions, outline and symbols. */
export const NAMESPACES = ['common', 'lsp', 'editing'] as const;
export type Namespace = (typeof NAMESPACES)[number];

export type Catalog = Record<Namespace, Record<string, unknown>>;

export const CATALOGS: Record<Locale, Catalog> = {
  en: { common: enCommon, lsp: enLsp, editing: enEditing },
  pseudo: { common: pseudoCommon, lsp: pseudoLsp, editing: pseudoEditing },
  'pt-pt': { common: ptCommon, lsp: ptLsp, editing: ptEditing },
  'zh-cn': { common: zhCommon, lsp: zhLsp, editing: zhEditing },
};

/** i18next language tags of our locales (BCP 47 spelling, as html[lang] wants it). */
export const LANGUAGE_TAGS: Record<Locale, string> = { en: 'en', pseudo: 'en-XA', 'pt-pt': 'pt-PT', 'zh-cn': 'zh-CN' };
