// Precompresses the built web app once, at build time, so the backend never compresses per request:
// every compressible file gets a `.br` (brotli, max quality) and a `.gz` (gzip -9) sibling.
// Only written when the compressed form is actually smaller.
import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { readdirSync, readFileSync, statSync, writeFileSync, unlinkSync } from 'node:fs';
import { extname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.svg', '.ttf', '.txt', '.wasm']);
// Brotli's best quality costs seconds per MiB; above this size (only the lazily loaded TypeScript
// worker today) quality 9 keeps the build quick for ~8% more bytes.
const MAX_QUALITY_UP_TO = 4 * 1024 * 1024;
// Below this size the headers of a compressed answer outweigh what compression saves.
const MIN_BYTES = 1024;

/**
 * The compressed forms of contents already compressed in this process, by digest and file type:
 * the production build and its test twin share most of their bytes (Monaco, the workers, fonts),
 * and brotli at its best quality is most of a web build's time, so each content is compressed once.
 */
const compressed = new Map();

function* filesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

function compress(bytes, ext) {
  const key = `${ext}:${createHash('sha256').update(bytes).digest('hex')}`;
  let forms = compressed.get(key);
  if (!forms) {
    // zlib's asynchronous forms run on libuv's thread pool, so files compress on every core.
    forms = Promise.all([
      brotliAsync(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: bytes.length <= MAX_QUALITY_UP_TO ? constants.BROTLI_MAX_QUALITY : 9,
          [constants.BROTLI_PARAM_LGWIN]: 24,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          [constants.BROTLI_PARAM_MODE]: ext === '.ttf' || ext === '.wasm' ? constants.BROTLI_MODE_GENERIC : constants.BROTLI_MODE_TEXT,
        },
      }),
      gzipAsync(bytes, { level: 9 }),
    ]);
    compressed.set(key, forms);
  }
  return forms;
}

export async function precompress(dir) {
  let raw = 0,
    br = 0,
    gz = 0;
  const pending = [];
  for (const path of [...filesUnder(dir)]) {
    if (path.endsWith('.br') || path.endsWith('.gz')) {
      unlinkSync(path);
      continue;
    }
    if (!COMPRESSIBLE.has(extname(path).toLowerCase()) || statSync(path).size < MIN_BYTES) continue;
    pending.push(path);
  }
  // Largest first, a few at a time: the thread pool stays busy and memory stays bounded.
  pending.sort((a, b) => statSync(b).size - statSync(a).size);
  const worker = async () => {
    for (let path = pending.shift(); path !== undefined; path = pending.shift()) {
      const bytes = readFileSync(path);
      const [brotli, gzip] = await compress(bytes, extname(path));
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
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(4, availableParallelism())) }, worker));
  return { raw, br, gz };
}
