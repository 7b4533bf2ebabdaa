import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentVersion } from './version.js';
import { writeWorkspaceFileFrom } from './stagedWrite.js';
import { Workspace } from './workspace.js';

let root: string;
let ws: Workspace;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'agentctl-staged-'));
  writeFileSync(join(root, 'file.txt'), 'before\n');
  ws = await Workspace.open(root);
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

const temps = (dir = root) => readdirSync(dir).filter((name) => name.endsWith('.tmp'));

/** A body of `chunks`, noting how many were pulled and what the folder held while it streamed. */
function body(chunks: Array<string | Error>) {
  const seen = { pulled: 0, tempsWhileStreaming: [] as string[] };
  async function* gen() {
    for (const chunk of chunks) {
      seen.pulled++;
      if (chunk instanceof Error) throw chunk;
      yield Buffer.from(chunk);
      seen.tempsWhileStreaming.push(...temps());
    }
  }
  return { stream: gen(), seen };
}

describe('writeWorkspaceFileFrom: a save streamed into a staged temp file', () => {
  it('writes the streamed bytes, stages them beside the target, answers their version and leaves no temp file', async () => {
    const { stream, seen } = body(['one ', 'two ', 'three\n']);
    const base = contentVersion(Buffer.from('before\n'));
    const outcome = await writeWorkspaceFileFrom(ws, 'file.txt', stream, { baseVersion: base, limit: 100 });
    expect(outcome).toEqual({ ok: true, value: { version: contentVersion(Buffer.from('one two three\n')) } });
    expect(readFileSync(join(root, 'file.txt'), 'utf8')).toBe('one two three\n');
    expect(seen.tempsWhileStreaming[0]).toMatch(/^\.file\.txt\.kandev-[0-9a-f]{12}\.tmp$/);
    expect(temps()).toEqual([]);
  });

  it('a stale base version is a conflict with the current version; the file is unchanged and the temp file gone', async () => {
    const outcome = await writeWorkspaceFileFrom(ws, 'file.txt', body(['after\n']).stream, { baseVersion: 'stale', limit: 100 });
    expect(outcome).toMatchObject({ ok: false, error: { status: 409, code: 'conflict' }, currentVersion: contentVersion(Buffer.from('before\n')) });
    expect(readFileSync(join(root, 'file.txt'), 'utf8')).toBe('before\n');
    expect(temps()).toEqual([]);
  });

  it('the version is checked against the file as it is when the body has arrived, not when it started', async () => {
    const base = contentVersion(Buffer.from('before\n'));
    async function* changesMeanwhile() {
      yield Buffer.from('mine\n');
      writeFileSync(join(root, 'file.txt'), 'theirs\n');
    }
    const outcome = await writeWorkspaceFileFrom(ws, 'file.txt', changesMeanwhile(), { baseVersion: base, limit: 100 });
    expect(outcome).toMatchObject({ ok: false, currentVersion: contentVersion(Buffer.from('theirs\n')) });
    expect(readFileSync(join(root, 'file.txt'), 'utf8')).toBe('theirs\n');
    expect(temps()).toEqual([]);
  });

  it('a body over the limit is refused with the limit as soon as it passes it: nothing more is read, nothing written', async () => {
    const { stream, seen } = body(['12345', '67890', 'x', 'never read']);
    const outcome = await writeWorkspaceFileFrom(ws, 'file.txt', stream, { baseVersion: undefined, limit: 10 });
    expect(outcome).toMatchObject({ ok: false, error: { status: 413, code: 'too_large' }, limit: 10 });
    expect(seen.pulled).toBe(3);
    expect(readFileSync(join(root, 'file.txt'), 'utf8')).toBe('before\n');
    expect(temps()).toEqual([]);
  });

  it('a body exactly at the limit is written', async () => {
    const outcome = await writeWorkspaceFileFrom(ws, 'file.txt', body(['12345', '67890']).stream, { baseVersion: undefined, limit: 10 });
    expect(outcome.ok).toBe(true);
    expect(readFileSync(join(root, 'file.txt'), 'utf8')).toBe('1234567890');
  });

  it('a body that breaks or ends incomplete is cut off: the file is unchanged and the temp file gone', async () => {
    const broken = await writeWorkspaceFileFrom(ws, 'file.txt', body(['half of ', new Error('aborted')]).stream, { baseVersion: undefined, limit: 100 });
    expect(broken).toMatchObject({ ok: false, cutOff: true });
    const incomplete = await writeWorkspaceFileFrom(ws, 'file.txt', body(['half of it']).stream, {
      baseVersion: undefined,
      limit: 100,
      complete: () => false,
    });
    expect(incomplete).toMatchObject({ ok: false, cutOff: true });
    expect(readFileSync(join(root, 'file.txt'), 'utf8')).toBe('before\n');
    expect(temps()).toEqual([]);
  });

  it('a new file in new folders: the folders are made only for a save that happens', async () => {
    const refused = await writeWorkspaceFileFrom(ws, 'a/b/new.txt', body(['too long']).stream, { baseVersion: '', limit: 3 });
    expect(refused).toMatchObject({ ok: false, limit: 3 });
    expect(existsSync(join(root, 'a'))).toBe(false);
    expect(temps()).toEqual([]);
    const written = await writeWorkspaceFileFrom(ws, 'a/b/new.txt', body(['new\n']).stream, { baseVersion: '', limit: 100 });
    expect(written.ok).toBe(true);
    expect(readFileSync(join(root, 'a/b/new.txt'), 'utf8')).toBe('new\n');
    expect(temps()).toEqual([]);
    expect(temps(join(root, 'a/b'))).toEqual([]);
  });

  it("keeps the existing file's permissions", async () => {
    chmodSync(join(root, 'file.txt'), 0o600);
    await writeWorkspaceFileFrom(ws, 'file.txt', body(['private\n']).stream, { baseVersion: undefined, limit: 100 });
    expect(statSync(join(root, 'file.txt')).mode & 0o777).toBe(0o600);
  });
});
