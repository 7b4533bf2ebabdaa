import type { IncomingMessage, ServerResponse } from 'node:http';
import { ACCESS_TOKEN_FILE, ACCESS_TOKEN_PARAM } from '@kandev/protocol';
import en from './accessPage/en.json' with { type: 'json' };
import pseudo from './accessPage/pseudo.json' with { type: 'json' };
import ptPt from './accessPage/pt-pt.json' with { type: 'json' };
import zhCn from './accessPage/zh-cn.json' with { type: 'json' };

/**
 * The page a browser gets instead of the app when it has no valid access cookie: what happened and
 * how to get the link again, in the reader's language. Self-contained (inline style, no script, no
 * app asset), because nothing else of the app may be served before sign-in. The copy lives in the
 * JSON catalogs next to this file (pseudo.json is generated from en.json, see accessPage.test.ts).
 */
type Copy = typeof en;
export const ACCESS_PAGE_CATALOGS: Record<string, Copy> = { en, 'pt-pt': ptPt, 'zh-cn': zhCn, pseudo };
const HTML_LANG: Record<string, string> = { en: 'en', 'pt-pt': 'pt-PT', 'zh-cn': 'zh-CN', pseudo: 'en-XA' };

/** `?locale=` (as the app accepts it) first, then Accept-Language, then English. */
export function accessPageLocale(queryLocale: string | null, acceptLanguage: string | undefined): string {
  const asked = queryLocale?.toLowerCase();
  if (asked && asked in ACCESS_PAGE_CATALOGS) return asked;
  for (const item of (acceptLanguage ?? '').split(',')) {
    const tag = item.split(';')[0]?.trim().toLowerCase() ?? '';
    if (tag.startsWith('pt')) return 'pt-pt';
    if (tag.startsWith('zh')) return 'zh-cn';
    if (tag.startsWith('en')) return 'en';
  }
  return 'en';
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

/** Escapes the copy, then fills {{placeholders}} with (escaped) literals shown as code. */
function fill(text: string, values: Record<string, string>): string {
  return escapeHtml(text).replace(/\{\{(\w+)\}\}/g, (whole, name: string) => {
    if (!(name in values)) return whole;
    // Short literals stay on one line; the long example link may wrap on a phone.
    return `<code${name === 'example' ? ' class="wrap"' : ''}>${escapeHtml(values[name] as string)}</code>`;
  });
}

export function renderAccessPage(locale: string, origin: string): string {
  const copy = ACCESS_PAGE_CATALOGS[locale] ?? en;
  const values = {
    command: 'npm start',
    example: `${origin}/?${ACCESS_TOKEN_PARAM}=…`,
    file: ACCESS_TOKEN_FILE,
    home: '~/.kandev',
    homeVar: 'KANDEV_HOME',
    param: `?${ACCESS_TOKEN_PARAM}=`,
    tokenVar: 'KANDEV_TOKEN',
  };
  return `<!doctype html>
<html lang="${HTML_LANG[locale] ?? 'en'}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${fill(copy.title, values)}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:2rem 1rem;background:#f6f7f9;color:#1c1f24}
main{max-width:40rem;margin:0 auto;background:#fff;border:1px solid #d8dce2;border-radius:8px;padding:1.5rem 2rem}
h1{font-size:1.4rem;margin:0 0 .75rem}h2{font-size:1.05rem;margin:1.25rem 0 .5rem}
code{font:.9em ui-monospace,monospace;background:#eef0f3;padding:.1em .3em;border-radius:4px;white-space:nowrap}
code.wrap{white-space:normal;overflow-wrap:anywhere}
li{margin:.4rem 0}.note{color:#50575f}
@media (prefers-color-scheme:dark){body{background:#15171a;color:#e4e6ea}main{background:#1e2125;border-color:#33383e}code{background:#2b2f35}.note{color:#a7adb5}}
</style></head>
<body><main role="main" data-kandev-access="missing">
<h1>${fill(copy.title, values)}</h1>
<p>${fill(copy.lead, values)}</p>
<h2>${fill(copy.howTitle, values)}</h2>
<ul><li>${fill(copy.fromTerminal, values)}</li><li>${fill(copy.fromFile, values)}</li><li>${fill(copy.fromEnv, values)}</li></ul>
<p class="note">${fill(copy.afterwards, values)}</p>
</main></body></html>
`;
}

/** 401 with the page (or a one-line text for anything that is not a page load, e.g. a script). */
export function writeAccessPage(req: IncomingMessage, res: ServerResponse, url: URL, origin: string): void {
  const locale = accessPageLocale(url.searchParams.get('locale'), req.headers['accept-language']);
  const body = renderAccessPage(locale, origin);
  res.writeHead(401, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'content-language': HTML_LANG[locale] ?? 'en',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
