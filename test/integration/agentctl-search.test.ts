import type { SearchHit, SearchStreamLine } from '@kandev/protocol';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findRipgrep } from '../../apps/agentctl/src/files/search/ripgrep.js';
import { startAgentctl, type RunningAgentctl } from '../../apps/agentctl/src/testing/agentctlProcess.js';
import { prerequisite } from '../support/env.js';

/**
 * The files search of a real agentctl, once with ripgrep on the task PATH and once without it
 * (the walker): the same answers, streamed as NDJSON, with the same options and refusals.
 */
const temp = mkdtempSync(join(tmpdir(), 'agentctl-search-it-'));
const workspace = join(temp, 'workspace');
const outside = join(temp, 'outside');
const rg = findRipgrep(process.env);
// No rg here: only the folder of this node binary, copied as a link into a PATH of its own.
const noRgBin = join(temp, 'no-rg-bin');

function write(rel: string, content: string): void {
  mkdirSync(dirname(join(workspace, rel)), { recursive: true });
  writeFileSync(join(workspace, rel), content);
}

beforeAll(() => {
  mkdirSync(outside, { recursive: true });
  mkdirSync(noRgBin);
  symlinkSync(process.execPath, join(noRgBin, 'node'));
  writeFileSync(join(outside, 'secret.txt'), 'rareToken outside\n');
  write('.gitignore', 'build/\n');
  write('build/out.js', 'rareToken\n');
  write('src/a.ts', 'export const rareToken = 1;\nexport const RARETOKEN = 2;\nexport const rareTokens = [rareToken];\n');
  write('src/b.py', 'print("rareToken")\n');
  symlinkSync(outside, join(workspace, 'linked'));
  // Enough files after the one hit that a walker is still reading when the client goes away.
  for (let i = 0; i < 3000; i++) write(`zz/many/${String(i).padStart(5, '0')}.txt`, `nothing to see ${i}\n`.repeat(20));
});
afterAll(() => rmSync(temp, { recursive: true, force: true }));

async function streamed(
  agentctl: RunningAgentctl,
  params: string,
): Promise<{ hits: SearchHit[]; end: SearchStreamLine | undefined; contentType: string | null }> {
  const res = await agentctl.api(`/api/v1/search?stream=1&${params}`);
  const lines = (await res.text())
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as SearchStreamLine);
  const hits = lines.flatMap((l) => (l.type === 'hits' ? l.hits : []));
  hits.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || a.column - b.column));
  return { hits, end: lines.at(-1), contentType: res.headers.get('content-type') };
}

const where = (hits: SearchHit[]) => hits.map((h) => `${h.path}:${h.line}:${h.column}`);

function engineSuite(name: 'ripgrep' | 'walker', path: () => string) {
  describe(`agentctl search with the ${name} engine`, () => {
    let agentctl: RunningAgentctl;
    beforeAll(async () => {
      agentctl = await startAgentctl({ workspace, env: { PATH: path(), HOME: join(temp, 'home') } });
    });
    afterAll(() => agentctl?.stop());

    it('says which engine it chose', async () => {
      expect(await agentctl.nextLog((l) => l.event === 'search_engine')).toMatchObject({ engine: name });
    });

    it('streams hits as NDJSON and ends with done naming the engine; .gitignore and links are respected', async () => {
      const { hits, end, contentType } = await streamed(agentctl, 'q=raretoken');
      expect(contentType).toBe('application/x-ndjson; charset=utf-8');
      expect(end).toEqual({ type: 'done', truncated: false, engine: name });
      expect(where(hits)).toEqual(['src/a.ts:1:14', 'src/a.ts:2:14', 'src/a.ts:3:14', 'src/a.ts:3:28', 'src/b.py:1:8']);
    });

    it('case-sensitive, whole-word and regex options', async () => {
      expect(where((await streamed(agentctl, 'q=RARETOKEN&case=1')).hits)).toEqual(['src/a.ts:2:14']);
      expect(where((await streamed(agentctl, 'q=rareToken&case=1&word=1')).hits)).toEqual(['src/a.ts:1:14', 'src/a.ts:3:28', 'src/b.py:1:8']);
      expect(where((await streamed(agentctl, `q=${encodeURIComponent('^print\\(')}&regex=1`)).hits)).toEqual(['src/b.py:1:1']);
    });

    it('the one-shot JSON answer is the same search', async () => {
      const res = (await (await agentctl.api('/api/v1/search?q=rareToken&word=1&case=1')).json()) as { hits: SearchHit[] };
      expect(where(res.hits)).toEqual(['src/a.ts:1:14', 'src/a.ts:3:28', 'src/b.py:1:8']);
    });

    it('nothing found is an empty, finished stream', async () => {
      const { hits, end } = await streamed(agentctl, 'q=no-such-string-anywhere');
      expect(hits).toEqual([]);
      expect(end).toMatchObject({ type: 'done', truncated: false });
    });

    it('an invalid regular expression is a 400 with a message, before anything streams', async () => {
      const res = await agentctl.api(`/api/v1/search?stream=1&regex=1&q=${encodeURIComponent('(unclosed')}`);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: 'bad_request', message: expect.stringContaining('regular expression') } });
    });
  });
}

describe.runIf(prerequisite(rg !== undefined, 'ripgrep (rg) on PATH'))('with ripgrep', () => {
  engineSuite('ripgrep', () => `${dirname(rg as string)}:${noRgBin}`);
});
engineSuite('walker', () => noRgBin);

describe('cancelling a streamed search', () => {
  it('a client that goes away after the first hit stops the walker on the task host', async () => {
    const agentctl = await startAgentctl({ workspace, env: { PATH: noRgBin, HOME: join(temp, 'home') } });
    try {
      const cancelled = new Promise<Record<string, unknown>>((resolve) => {
        agentctl.child.stderr!.on('data', (chunk: string) => {
          // A search's own lines, not the start-up line naming the engine (which may come late).
          for (const line of String(chunk).split('\n'))
            if (line.includes('"search_') && !line.includes('"search_engine"')) resolve(JSON.parse(line) as Record<string, unknown>);
        });
      });
      const abort = new AbortController();
      const res = await agentctl.api('/api/v1/search?stream=1&q=export', { signal: abort.signal });
      const reader = res.body!.getReader();
      const first = new TextDecoder().decode((await reader.read()).value);
      expect(first).toContain('"type":"hits"');
      abort.abort();
      // The first search log line after the hit says how it ended: cancelled, not finished.
      expect(await cancelled).toMatchObject({ event: 'search_cancelled', engine: 'walker' });
    } finally {
      await agentctl.stop();
    }
  });
});
