import { createReadStream, statSync, type Stats } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { chooseEncoding, type ContentEncoding } from './contentEncoding.js';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.ttf': 'font/ttf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

const MISSING_BUILD_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Kandev</title></head>
<body><h1>Kandev is running, but the web app is not built</h1>
<p>Run <code>npm run build</code> in the Kandev folder, then reload this page.</p></body></html>
`;

export function contentTypeFor(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Serves the built web app. Unknown paths fall back to index.html (client-side routes); hashed
 * files under /assets/ are cached for good, index.html never, so a rebuild is picked up on reload.
 */
export function serveStatic(webDir: string, req: IncomingMessage, res: ServerResponse, pathname: string): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
    res.end('Method not allowed\n');
    return;
  }
  const root = resolve(webDir);
  const index = fileAt(join(root, 'index.html'));
  if (!index) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : MISSING_BUILD_PAGE);
    return;
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    decoded = '/';
  }
  const candidate = resolve(root, `.${decoded}`);
  // resolve() folds `..` away; anything that lands outside the root is treated as a client route.
  const inside = candidate === root || candidate.startsWith(root + sep);
  const file = inside && !decoded.includes('\0') ? fileAt(candidate) : undefined;
  if (file) {
    send(req, res, candidate, file, decoded.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    return;
  }
  // A missing bundle asset is a 404, not the app shell, so a stale hashed file fails loudly. Other
  // paths fall back even with a dot: client routes may carry file names (/files/src/a.ts).
  if (decoded.startsWith('/assets/')) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Not found\n');
    return;
  }
  send(req, res, join(root, 'index.html'), index, 'no-cache');
}

function fileAt(path: string): Stats | undefined {
  try {
    const stats = statSync(path);
    return stats.isFile() ? stats : undefined;
  } catch {
    return undefined;
  }
}

const SIBLING_SUFFIX: Record<Exclude<ContentEncoding, 'identity'>, string> = { br: '.br', gzip: '.gz' };

/** The precompressed siblings (scripts/precompress.mjs) that exist next to a file. */
function availableEncodings(path: string): Map<ContentEncoding, { path: string; stats: Stats }> {
  const found = new Map<ContentEncoding, { path: string; stats: Stats }>();
  for (const [encoding, suffix] of Object.entries(SIBLING_SUFFIX) as Array<[ContentEncoding, string]>) {
    const stats = fileAt(path + suffix);
    if (stats) found.set(encoding, { path: path + suffix, stats });
  }
  return found;
}

/** A weak validator per representation: the same file compressed differently is a different body. */
function etagOf(stats: Stats, encoding: ContentEncoding): string {
  return `W/"${stats.size.toString(16)}-${Math.floor(stats.mtimeMs).toString(16)}${encoding === 'identity' ? '' : `-${encoding}`}"`;
}

function notModified(req: IncomingMessage, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (!header) return false;
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || strip(tag) === strip(etag));
}

function send(req: IncomingMessage, res: ServerResponse, path: string, stats: Stats, cacheControl: string): void {
  const siblings = availableEncodings(path);
  const encoding = chooseEncoding(req.headers['accept-encoding'], [...siblings.keys()]);
  const body = encoding === 'identity' ? { path, stats } : (siblings.get(encoding) as { path: string; stats: Stats });
  const etag = etagOf(body.stats, encoding);
  const headers: Record<string, string | number> = {
    'content-type': contentTypeFor(path),
    'cache-control': cacheControl,
    'x-content-type-options': 'nosniff',
    etag,
  };
  // Caches must key on Accept-Encoding whenever the answer could have differed by it.
  if (siblings.size > 0) headers.vary = 'Accept-Encoding';
  if (notModified(req, etag)) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  if (encoding !== 'identity') headers['content-encoding'] = encoding;
  headers['content-length'] = body.stats.size;
  res.writeHead(200, headers);
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const stream = createReadStream(body.path);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}
