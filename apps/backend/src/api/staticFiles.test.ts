import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The build's own precompression step, so the test serves exactly what a build produces.
// @ts-expect-error -- a plain .mjs build script without type declarations
import { precompress } from '../../../../scripts/precompress.mjs';
import { serveStatic } from './staticFiles.js';

const web = mkdtempSync(join(tmpdir(), 'kandev-static-'));
const bundle = `export const words = ${JSON.stringify(Array.from({ length: 4000 }, (_, i) => `word${i % 97}`))};\n`;
let server: Server;
let base: string;

beforeAll(async () => {
  mkdirSync(join(web, 'assets'));
  writeFileSync(join(web, 'index.html'), `<!doctype html><title>Kandev</title>${'<!-- padding -->'.repeat(100)}`);
  writeFileSync(join(web, 'assets/app-abc123.js'), bundle);
  writeFileSync(join(web, 'assets/tiny-abc123.js'), 'export {};\n');
  writeFileSync(join(web, 'assets/logo-abc123.png'), Buffer.alloc(4096, 7));
  await precompress(web);
  server = createServer((req, res) => serveStatic(web, req, res, new URL(req.url ?? '/', 'http://x').pathname));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(web, { recursive: true, force: true });
});

/** A raw GET (fetch would decode the body and hide Content-Encoding). */
function get(
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('static files: precompressed assets negotiated by Accept-Encoding', () => {
  it('the build writes brotli and gzip siblings, smaller than the file, and skips tiny and binary files', () => {
    expect(brotliDecompressSync(readFileSync(join(web, 'assets/app-abc123.js.br'))).toString()).toBe(bundle);
    expect(gunzipSync(readFileSync(join(web, 'assets/app-abc123.js.gz'))).toString()).toBe(bundle);
    expect(readFileSync(join(web, 'assets/app-abc123.js.br')).length).toBeLessThan(bundle.length / 4);
    expect(() => readFileSync(join(web, 'assets/tiny-abc123.js.br'))).toThrow();
    expect(() => readFileSync(join(web, 'assets/logo-abc123.png.gz'))).toThrow();
  });

  it('brotli when accepted, with Content-Encoding, Vary, the compressed length and immutable caching', async () => {
    const res = await get('/assets/app-abc123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(res.headers['content-length'])).toBe(res.body.length);
    expect(brotliDecompressSync(res.body).toString()).toBe(bundle);
  });

  it('gzip when brotli is not accepted', async () => {
    const res = await get('/assets/app-abc123.js', { 'accept-encoding': 'gzip' });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(gunzipSync(res.body).toString()).toBe(bundle);
  });

  it('identity without Accept-Encoding, still with Vary, and HEAD sends no body', async () => {
    const res = await get('/assets/app-abc123.js');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(res.body.toString()).toBe(bundle);
    const head = await get('/assets/app-abc123.js', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.body.length).toBe(0);
  });

  it('files without a compressed sibling are served as they are, without Vary', async () => {
    const res = await get('/assets/logo-abc123.png', { 'accept-encoding': 'br, gzip' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
    expect(res.body.length).toBe(4096);
  });

  it('the app shell is compressed too and never cached for good, also as a client-route fallback', async () => {
    const res = await get('/files/src/main.ts', { 'accept-encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(res.body).toString()).toContain('<title>Kandev</title>');
  });

  it('304 for a matching validator of the same representation; another encoding has another validator', async () => {
    const br = await get('/assets/app-abc123.js', { 'accept-encoding': 'br' });
    const etag = String(br.headers.etag);
    const again = await get('/assets/app-abc123.js', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.vary).toBe('Accept-Encoding');
    expect(again.headers.etag).toBe(etag);
    const gzip = await get('/assets/app-abc123.js', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(gzip.status).toBe(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers.etag).not.toBe(etag);
  });

  it('a missing hashed asset is a 404 and its compressed siblings are not reachable by accident', async () => {
    expect((await get('/assets/missing-1.js', { 'accept-encoding': 'br' })).status).toBe(404);
  });
});
