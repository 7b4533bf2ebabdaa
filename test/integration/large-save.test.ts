import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, watch, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FILE_BYTES_CONTENT_TYPE, MAX_SAVE_BYTES } from '@kandev/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders } from '../support/access.js';
import { startTestBackend, type TestBackend } from './backend-support.js';

/**
 * Saving a large file, through the real backend and a real agentctl: the bytes stream through both
 * hops into a staged temp file, the version check holds, a body over the limit is refused with 413
 * `too_large` and the limit while it still streams, and a save that breaks off changes nothing and
 * leaves no temp file.
 */
const MiB = 1024 * 1024;
let stack: TestBackend;
let sessionId: string;
const root = mkdtempSync(join(tmpdir(), 'kandev-large-save-'));
const workspace = join(root, 'workspace');
const BIG = join(workspace, 'big.txt');

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const temps = () => readdirSync(workspace).filter((name) => name.endsWith('.tmp'));
/** `size` bytes of text, different for each `seed`. */
const text = (size: number, seed: string) => Buffer.alloc(size, `${seed} line of the large file\n`);

beforeAll(async () => {
  mkdirSync(workspace);
  writeFileSync(BIG, text(50 * MiB, 'first'));
  stack = await startTestBackend();
  const task = await stack.api('POST', '/api/tasks', { title: 'large save', executor: 'local_pc', repositories: [{ path: workspace }] });
  sessionId = (await stack.api('POST', `/api/tasks/${task.json.id}/sessions`)).json.id;
}, 120_000);

afterAll(async () => {
  await stack?.close();
  rmSync(root, { recursive: true, force: true });
});

function fileUrl(path: string, baseVersion?: string): string {
  const query = new URLSearchParams({ path });
  if (baseVersion !== undefined) query.set('baseVersion', baseVersion);
  return `${stack.url}/api/sessions/${sessionId}/file?${query}`;
}

function save(body: BodyInit, baseVersion?: string): Promise<Response> {
  return fetch(fileUrl('big.txt', baseVersion), {
    method: 'PUT',
    headers: { ...authHeaders(), 'content-type': FILE_BYTES_CONTENT_TYPE },
    body,
    duplex: 'half',
  } as RequestInit);
}

/**
 * The staged temp files of big.txt, from the folder's fs events (no polling): `appeared` settles
 * with the name of the first one seen, `gone(name)` once that one is removed. Armed before the
 * action that causes them.
 */
function stagedFiles(): { appeared: Promise<string>; gone(name: string): Promise<void>; close(): void } {
  const waiters: Array<() => void> = [];
  let seen: (name: string) => void = () => undefined;
  const appeared = new Promise<string>((resolve) => (seen = resolve));
  const watcher = watch(workspace, (_event, name) => {
    if (!name?.startsWith('.big.txt.kandev-')) return;
    if (existsSync(join(workspace, name))) seen(name);
    for (const wake of waiters.splice(0)) wake();
  });
  const gone = async (name: string) => {
    while (existsSync(join(workspace, name))) await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return { appeared, gone, close: () => watcher.close() };
}

/** A save's request head sent over a plain socket, announcing `length` bytes, so a test can break it off at will. */
async function startRawSave(length: number): Promise<Socket> {
  const { hostname, port, pathname, search } = new URL(fileUrl('big.txt'));
  const socket = connect(Number(port), hostname);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.on('error', () => undefined);
  const head = [
    `PUT ${pathname}${search} HTTP/1.1`,
    `host: ${hostname}:${port}`,
    `authorization: ${authHeaders().authorization}`,
    `content-type: ${FILE_BYTES_CONTENT_TYPE}`,
    `content-length: ${length}`,
    '',
    '',
  ].join('\r\n');
  socket.write(head);
  return socket;
}

describe('saving a large file (real backend and agentctl)', () => {
  it('a 50 MiB save round-trips with its version; a stale version is a conflict and changes nothing', async () => {
    const read = await fetch(fileUrl('big.txt'), { headers: authHeaders() });
    const { version: readVersion } = (await read.json()) as { version: string };
    expect(readVersion).toBe(sha256(readFileSync(BIG)));

    const next = text(50 * MiB, 'second');
    const saved = await save(next, readVersion);
    expect(saved.status).toBe(200);
    const { version } = (await saved.json()) as { version: string };
    expect(version).toBe(sha256(next));
    expect(sha256(readFileSync(BIG))).toBe(version);
    expect(temps()).toEqual([]);

    // Saving again over the version read before the save is stale: 409 with what the disk holds.
    const stale = await save(text(50 * MiB, 'third'), readVersion);
    expect(stale.status).toBe(409);
    expect(await stale.json()).toMatchObject({ error: { code: 'conflict' }, currentVersion: version });
    expect(sha256(readFileSync(BIG))).toBe(version);
    expect(temps()).toEqual([]);

    const reread = (await (await fetch(fileUrl('big.txt'), { headers: authHeaders() })).json()) as { content: string; version: string };
    expect(reread.version).toBe(version);
    expect(reread.content.length).toBe(50 * MiB);
  }, 120_000);

  it('a declared body over the limit is refused with 413 too_large and the limit, unread; the file is unchanged', async () => {
    const before = sha256(readFileSync(BIG));
    const refused = await save(Buffer.alloc(MAX_SAVE_BYTES + 1, 'x'));
    expect(refused.status).toBe(413);
    expect(await refused.json()).toMatchObject({ error: { code: 'too_large' }, limit: MAX_SAVE_BYTES });
    expect(sha256(readFileSync(BIG))).toBe(before);
    expect(temps()).toEqual([]);
  }, 120_000);

  it('a streamed body is refused as soon as it passes the limit, while it is still being sent, and leaves no temp file', async () => {
    const before = sha256(readFileSync(BIG));
    const staging = stagedFiles();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const chunk = Buffer.alloc(MiB, 'y');
    // One byte more than the limit, then the body stays open: only a server that counts while it
    // streams can answer now (one that buffers first would wait for an end that never comes).
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        for (let sent = 0; sent < MAX_SAVE_BYTES; sent += MiB) controller.enqueue(chunk);
        controller.enqueue(Buffer.from('!'));
        await held;
        controller.close();
      },
    });
    const refused = await save(body);
    release();
    expect(refused.status).toBe(413);
    expect(await refused.json()).toMatchObject({ error: { code: 'too_large' }, limit: MAX_SAVE_BYTES });
    // agentctl had staged the bytes it got; breaking the upload off removed them.
    await staging.gone(await staging.appeared);
    staging.close();
    expect(temps()).toEqual([]);
    expect(sha256(readFileSync(BIG))).toBe(before);
  }, 120_000);

  it.each([
    ['the connection is destroyed', (socket: Socket) => socket.destroy()],
    ['the client ends its side of the connection', (socket: Socket) => socket.end()],
  ])(
    'an upload broken off mid-body, shorter than its Content-Length (%s), changes nothing and leaves no temp file',
    async (_how, breakOff) => {
      const before = sha256(readFileSync(BIG));
      const staging = stagedFiles();
      const socket = await startRawSave(20 * MiB);
      socket.write(text(2 * MiB, 'partial'));
      // agentctl has started staging this save: now the client goes away.
      const name = await staging.appeared;
      breakOff(socket);
      await staging.gone(name);
      staging.close();
      socket.destroy();
      expect(temps()).toEqual([]);
      expect(sha256(readFileSync(BIG))).toBe(before);
    },
    120_000,
  );

  it('a malformed save (the JSON form with content that is not a string) is a 400 and changes nothing', async () => {
    const before = sha256(readFileSync(BIG));
    const refused = await fetch(fileUrl('big.txt'), {
      method: 'PUT',
      headers: { ...authHeaders(), 'content-type': 'application/json' },
      body: '{"content": 7}',
    });
    expect(refused.status).toBe(400);
    expect(sha256(readFileSync(BIG))).toBe(before);
    expect(temps()).toEqual([]);
  });
});
