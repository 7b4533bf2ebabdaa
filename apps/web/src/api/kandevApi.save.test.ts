import { FILE_BYTES_CONTENT_TYPE } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import { createKandevApi } from './kandevApi.js';

const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('writeFile: a save as the file bytes', () => {
  it('sends the text as raw bytes with the base version in the query', async () => {
    const sent: Array<{ url: string; init?: RequestInit }> = [];
    const api = createKandevApi(async (url, init) => (sent.push({ url, init }), answer(200, { version: 'v2' })));
    expect(await api.writeFile('s1', 'src/a.ts', 'text "quoted"\n', 'v1')).toEqual({ ok: true, version: 'v2' });
    const query = new URL(sent[0]!.url, 'http://x').searchParams;
    expect([query.get('path'), query.get('baseVersion')]).toEqual(['src/a.ts', 'v1']);
    expect(new Headers(sent[0]!.init?.headers).get('content-type')).toBe(FILE_BYTES_CONTENT_TYPE);
    expect(sent[0]!.init?.body).toBe('text "quoted"\n');
  });

  it('a save refused as too large fails with the code and the limit the server gave', async () => {
    const api = createKandevApi(async () => answer(413, { error: { code: 'too_large', message: 'm' }, limit: 67108864 }));
    await expect(api.writeFile('s1', 'big.log', 'x', undefined)).rejects.toMatchObject({ status: 413, code: 'too_large', limit: 67108864 });
  });
});
