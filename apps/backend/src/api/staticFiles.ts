import { createReadStream, statSync, type Stats } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';

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

function send(req: IncomingMessage, res: ServerResponse, path: string, stats: Stats, cacheControl: string): void {
  res.writeHead(200, {
    'content-type': contentTypeFor(path),
    'content-length': stats.size,
    'cache-control': cacheControl,
    'x-content-type-options': 'nosniff',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  const stream = createReadStream(path);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}
