import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentctl, taskPath, type RunningAgentctl } from '../../apps/agentctl/src/testing/agentctlProcess.js';

let temp: string;
let workspace: string;
let outside: string;
let agentctl: RunningAgentctl;

beforeAll(async () => {
  temp = mkdtempSync(join(tmpdir(), 'agentctl-files-it-'));
  workspace = join(temp, 'workspace');
  outside = join(temp, 'outside');
  mkdirSync(join(workspace, 'repoA/src'), { recursive: true });
  mkdirSync(join(workspace, '.git'));
  mkdirSync(outside);
  writeFileSync(join(workspace, 'repoA/src/main.ts'), 'export function greet(name: string) {\n  return `hi ${name}`;\n}\n');
  writeFileSync(join(outside, 'secret.txt'), 'top secret\n');
  symlinkSync(join(outside, 'secret.txt'), join(workspace, 'secret-link.txt'));
  symlinkSync(outside, join(workspace, 'outside-dir'));
  agentctl = await startAgentctl({ workspace, repos: ['repoA'], env: { PATH: taskPath(), HOME: join(temp, 'home') } });
});

afterAll(async () => {
  await agentctl?.stop();
  rmSync(temp, { recursive: true, force: true });
});

describe('agentctl files API over HTTP', () => {
  it('refuses every request without the bearer token, or with a wrong one, or with ?token=', async () => {
    for (const path of ['/api/v1/health', '/api/v1/files?path=', '/api/v1/file?path=repoA/src/main.ts', '/api/v1/search?q=greet']) {
      const missing = await agentctl.api(path, { token: null });
      expect(missing.status, path).toBe(401);
      expect(await missing.json()).toMatchObject({ error: { code: 'unauthorized' } });
      expect((await agentctl.api(path, { token: 'wrong' })).status).toBe(401);
    }
    const inQuery = await agentctl.api(`/api/v1/health?token=${agentctl.token}`, { token: null });
    expect(inQuery.status).toBe(401);
    const put = await agentctl.api('/api/v1/file?path=created-without-auth.txt', { token: null, method: 'PUT', body: JSON.stringify({ content: 'x' }) });
    expect(put.status).toBe(401);
    expect(readdirSync(workspace)).not.toContain('created-without-auth.txt');
  });

  it('reports the workspace identity on health', async () => {
    const res = await agentctl.api('/api/v1/health');
    expect(await res.json()).toEqual({
      ok: true,
      workspacePath: workspace,
      workspaceUri: `file://${workspace}`,
      repoSubpaths: ['repoA'],
      platform: process.platform,
    });
  });

  it('lists, reads and writes with versions; a stale base version is a 409 with the current version', async () => {
    const list = await (await agentctl.api('/api/v1/files?path=repoA')).json();
    expect(list).toEqual({ entries: [{ name: 'src', path: 'repoA/src', type: 'directory' }] });
    const root = (await (await agentctl.api('/api/v1/files')).json()) as { entries: Array<{ name: string }> };
    expect(root.entries.map((e) => e.name)).toEqual(['repoA']);

    const read = (await (await agentctl.api('/api/v1/file?path=repoA/src/main.ts')).json()) as { content: string; version: string };
    expect(read.content).toContain('greet');
    const write = await agentctl.api('/api/v1/file?path=repoA/src/main.ts', {
      method: 'PUT',
      body: JSON.stringify({ content: 'changed\n', baseVersion: read.version }),
    });
    expect(write.status).toBe(200);
    const { version } = (await write.json()) as { version: string };
    const stale = await agentctl.api('/api/v1/file?path=repoA/src/main.ts', {
      method: 'PUT',
      body: JSON.stringify({ content: 'lost\n', baseVersion: read.version }),
    });
    expect(stale.status).toBe(409);
    expect(await stale.json()).toEqual({ error: { code: 'conflict', message: expect.any(String) }, currentVersion: version });
    expect(readFileSync(join(workspace, 'repoA/src/main.ts'), 'utf8')).toBe('changed\n');
    const bad = await agentctl.api('/api/v1/file?path=repoA/x.ts', { method: 'PUT', body: '{"content": 1}' });
    expect(bad.status).toBe(400);
  });

  it('refuses path escapes (.., absolute, symlink) with 403 and reads or writes nothing', async () => {
    const escapes = ['../outside/secret.txt', 'repoA/../../outside/secret.txt', join(outside, 'secret.txt'), 'secret-link.txt', 'outside-dir/secret.txt'];
    for (const path of escapes) {
      const q = encodeURIComponent(path);
      const read = await agentctl.api(`/api/v1/file?path=${q}`);
      expect(read.status, path).toBe(403);
      const body = await read.text();
      expect(body).toContain('path_outside_workspace');
      expect(body).not.toContain('top secret');
      const list = await agentctl.api(`/api/v1/files?path=${q}`);
      expect(list.status, path).toBe(403);
      const write = await agentctl.api(`/api/v1/file?path=${q}`, { method: 'PUT', body: JSON.stringify({ content: 'pwned' }) });
      expect(write.status, path).toBe(403);
    }
    for (const path of ['outside-dir/new.txt', 'outside-dir/deep/new.txt', '../outside/new.txt']) {
      const write = await agentctl.api(`/api/v1/file?path=${encodeURIComponent(path)}`, { method: 'PUT', body: JSON.stringify({ content: 'pwned' }) });
      expect(write.status, path).toBe(403);
    }
    expect(readdirSync(outside)).toEqual(['secret.txt']);
    expect(readFileSync(join(outside, 'secret.txt'), 'utf8')).toBe('top secret\n');
  });

  it('searches the workspace with 1-based positions and never follows links out of it', async () => {
    writeFileSync(join(workspace, 'repoA/src/find.py'), 'x = 1\nprint("top secret")\n');
    const res = (await (await agentctl.api('/api/v1/search?q=top%20secret')).json()) as { hits: unknown[] };
    expect(res.hits).toEqual([{ path: 'repoA/src/find.py', line: 2, column: 8, preview: 'print("top secret")' }]);
  });
});
