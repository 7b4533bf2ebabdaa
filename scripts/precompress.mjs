// Precompresses the built web app once, at build time, so the backend never compresses per request:
// every compressible file gets a `.br` (brotli, max quality) and a `.gz` (gzip -9) sibling.
// Only written when the compressed form is actually smaller.
import { readdirSync, readFileSync, statSync, writeFileSync, unlinkSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.svg', '.ttf', '.txt', '.wasm']);
// Brotli's best quality costs seconds per MiB; above this size (only the lazily loaded TypeScript
// worker today) quality 9 keeps the build quick for ~8% more bytes.
const MAX_QUALITY_UP_TO = 4 * 1024 * 1024;
// Below this size the headers of a compressed answer outweigh what compression saves.
const MIN_BYTES = 1024;

function* filesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

export function precompress(dir) {
  let raw = 0,
    br = 0,
    gz = 0;
  for (const path of [...filesUnder(dir)]) {
    if (path.endsWith('.br') || path.endsWith('.gz')) {
      unlinkSync(path);
      continue;
    }
    if (!COMPRESSIBLE.has(extname(path).toLowerCase()) || statSync(path).size < MIN_BYTES) continue;
    const bytes = readFileSync(path);
    const brotli = brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: bytes.length <= MAX_QUALITY_UP_TO ? constants.BROTLI_MAX_QUALITY : 9,
        [constants.BROTLI_PARAM_LGWIN]: 24,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        [constants.BROTLI_PARAM_MODE]: extname(path) === '.ttf' || extname(path) === '.wasm' ? constants.BROTLI_MODE_GENERIC : constants.BROTLI_MODE_TEXT,
      },
    });
    const gzip = gzipSync(bytes, { level: 9 });
    raw += bytes.length;
    if (brotli.length < bytes.length) {
      writeFileSync(`${path}.br`, brotli);
      br += brotli.length;
    }
    if (gzip.length < bytes.length) {
      writeFileSync(`${path}.gz`, gzip);
      gz += gzip.length;
    }
  }
  return { raw, br, gz };
}
