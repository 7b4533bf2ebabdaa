import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamWorkspaceFile } from './readStream.js';
import { Workspace } from './workspace.js';

/** GET file as agentctl serves it: streamed JSON whose version is the hash of exactly the bytes sent. */
describe('streamed file reads', () => {
  let base: string;
  let server: Server;
  let url: string;
  const limit = 3 * 1024 * 1024;

  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'kandev-read-stream-'));
    const root = join(base, 'ws');
    mkdirSync(root);
    // Text with every kind of JSON escape and multi-byte characters across chunk boundaries.
    const line = 'const s = "quote \\" back\\\\slash\\ttab é 漢字 😀";\n';
    writeFileSync(join(root, 'big.ts'), line.repeat(Math.ceil((2.5 * 1024 * 1024) / Buffer.byteLength(line))));
    writeFileSync(join(root, 'huge.json'), Buffer.alloc(limit + 1, 32));
    mkdirSync(join(root, 'folder'));
    const ws = await Workspace.open(root);
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').searchParams.get('path') ?? '';
      void streamWorkspaceFile(ws, path, res, limit);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/?path=`;
  });

  afterAll(async () => {
    await new Promise((r) => server.close(r));
    rmSync(base, { recursive: true, force: true });
  });

  it('a multi-megabyte file arrives whole, with the sha256 of its bytes as its version', async () => {
    const { readFileSync } = await import('node:fs');
    const bytes = readFileSync(join(base, 'ws/big.ts'));
    const response = await fetch(`${url}big.ts`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { content: string; version: string };
    expect(body.content).toBe(bytes.toString('utf8'));
    expect(body.version).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('a file over the limit is refused with 413 too_large, its size and the limit; a folder with 400', async () => {
    const response = await fetch(`${url}huge.json`);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: { code: 'too_large', message: `file is larger than ${limit} bytes` }, size: limit + 1, limit });
    expect((await fetch(`${url}folder`)).status).toBe(400);
    expect((await fetch(`${url}../outside`)).status).toBeGreaterThanOrEqual(400);
  });
});
