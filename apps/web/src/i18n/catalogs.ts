import type { Locale } from '@kandev/protocol';
import enCommon from '../locales/en/common.json';
import enLsp from '../locales/en/lsp.json';
import enFaults from '../locales/en/faults.json';
import enSearch from '../locales/en/search.json';
import enTrust from '../locales/en/trust.json';
import enEditing from '../locales/en/editing.json';
import enWorkbench from '../locales/en/workbench.json';
import enLive from '../locales/en/live.json';
import pseudoCommon from '../locales/pseudo/common.json';
import pseudoLsp from '../locales/pseudo/lsp.json';
import pseudoFaults from '../locales/pseudo/faults.json';
import pseudoSearch from '../locales/pseudo/search.json';
import pseudoTrust from '../locales/pseudo/trust.json';
import pseudoEditing from '../locales/pseudo/editing.json';
import pseudoWorkbench from '../locales/pseudo/workbench.json';
import pseudoLive from '../locales/pseudo/live.json';
import ptCommon from '../locales/pt-pt/common.json';
import ptLsp from '../locales/pt-pt/lsp.json';
import ptFaults from '../locales/pt-pt/faults.json';
import ptSearch from '../locales/pt-pt/search.json';
import ptTrust from '../locales/pt-pt/trust.json';
import ptEditing from '../locales/pt-pt/editing.json';
import ptWorkbench from '../locales/pt-pt/workbench.json';
import ptLive from '../locales/pt-pt/live.json';
import zhCommon from '../locales/zh-cn/common.json';
import zhLsp from '../locales/zh-cn/lsp.json';
import zhFaults from '../locales/zh-cn/faults.json';
import zhSearch from '../locales/zh-cn/search.json';
import zhTrust from '../locales/zh-cn/trust.json';
import zhEditing from '../locales/zh-cn/editing.json';
import zhWorkbench from '../locales/zh-cn/workbench.json';
import zhLive from '../locales/zh-cn/live.json';

/**
 * Catalog namespaces: `common` for the app shell, `lsp` for language-server status copy, `faults`
 * for a crashed server's restart and last output, `search` for the Search panel's options, `trust`
 * for workspace trust, `editing` for rename, code actions, outline and symbols, `workbench` for the
 * task list, sessions, problems, quick open, shortcuts and themes, `live` for the live workspace
 * (disk changes under open tabs, git changes, the watcher's mode).
 */
export const NAMESPACES = ['common', 'lsp', 'faults', 'search', 'trust', 'editing', 'workbench', 'live'] as const;
export type Namespace = (typeof NAMESPACES)[number];

export type Catalog = Record<Namespace, Record<string, unknown>>;

export const CATALOGS: Record<Locale, Catalog> = {
  en: { common: enCommon, lsp: enLsp, faults: enFaults, search: enSearch, trust: enTrust, editing: enEditing, workbench: enWorkbench, live: enLive },
  pseudo: {
    common: pseudoCommon,
    lsp: pseudoLsp,
    faults: pseudoFaults,
    search: pseudoSearch,
    trust: pseudoTrust,
    editing: pseudoEditing,
    workbench: pseudoWorkbench,
    live: pseudoLive,
  },
  'pt-pt': { common: ptCommon, lsp: ptLsp, faults: ptFaults, search: ptSearch, trust: ptTrust, editing: ptEditing, workbench: ptWorkbench, live: ptLive },
  'zh-cn': { common: zhCommon, lsp: zhLsp, faults: zhFaults, search: zhSearch, trust: zhTrust, editing: zhEditing, workbench: zhWorkbench, live: zhLive },
};

/** i18next language tags of our locales (BCP 47 spelling, as html[lang] wants it). */
export const LANGUAGE_TAGS: Record<Locale, string> = { en: 'en', pseudo: 'en-XA', 'pt-pt': 'pt-PT', 'zh-cn': 'zh-CN' };
