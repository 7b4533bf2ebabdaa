import type { Locale } from '@kandev/protocol';
import enCommon from '../locales/en/common.json';
import enLsp from '../locales/en/lsp.json';
import enWorkbench from '../locales/en/workbench.json';
import pseudoCommon from '../locales/pseudo/common.json';
import pseudoLsp from '../locales/pseudo/lsp.json';
import pseudoWorkbench from '../locales/pseudo/workbench.json';
import ptCommon from '../locales/pt-pt/common.json';
import ptLsp from '../locales/pt-pt/lsp.json';
import ptWorkbench from '../locales/pt-pt/workbench.json';
import zhCommon from '../locales/zh-cn/common.json';
import zhLsp from '../locales/zh-cn/lsp.json';
import zhWorkbench from '../locales/zh-cn/workbench.json';

/** Catalog namespaces: `common` for the app shell, `lsp` for language-server status copy, `workbench` for tasks, sessions, Problems, quick open, shortcuts and theme. */
export const NAMESPACES = ['common', 'lsp', 'workbench'] as const;
export type Namespace = (typeof NAMESPACES)[number];

export type Catalog = Record<Namespace, Record<string, unknown>>;

export const CATALOGS: Record<Locale, Catalog> = {
  en: { common: enCommon, lsp: enLsp, workbench: enWorkbench },
  pseudo: { common: pseudoCommon, lsp: pseudoLsp, workbench: pseudoWorkbench },
  'pt-pt': { common: ptCommon, lsp: ptLsp, workbench: ptWorkbench },
  'zh-cn': { common: zhCommon, lsp: zhLsp, workbench: zhWorkbench },
};

/** i18next language tags of our locales (BCP 47 spelling, as html[lang] wants it). */
export const LANGUAGE_TAGS: Record<Locale, string> = { en: 'en', pseudo: 'en-XA', 'pt-pt': 'pt-PT', 'zh-cn': 'zh-CN' };
