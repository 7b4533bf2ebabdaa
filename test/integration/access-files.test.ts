import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ACCESS_TOKEN_FILE } from '@kandev/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureBuilt, repoRoot } from '../support/build.js';

/**
 * the start link and files at rest: the built backend as `npm start` runs it, without
 * KANDEV_TOKEN. It generates a token into KANDEV_HOME (0600), prints the sign-in URL once on
 * stdout (never in a log), keeps KANDEV_HOME 0700 and its database files 0600.
 */
const root = mkdtempSync(join(tmpdir(), 'kandev-access-files-'));
const running = new Set<ChildProcess>();
afterAll(async () => {
  for (const child of running) await stop(child);
  rmSync(root, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  base: string;
  signIn: string;
  keptIn: string;
  stderr: string[];
  logged(event: string): Promise<Record<string, unknown>>;
}

async function start(home: string, env: Record<string, string> = {}): Promise<Started> {
  ensureBuilt('agentctl');
  ensureBuilt('backend');
  const { KANDEV_TOKEN: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, [join(repoRoot, 'apps/backend/dist/backend.mjs')], {
    env: { ...inherited, KANDEV_HOME: home, KANDEV_PORT: '0', KANDEV_HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const stderr: string[] = [];
  const stderrLines = createInterface({ input: child.stderr! });
  stderrLines.on('line', (line) => stderr.push(line));
  const lines: string[] = [];
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      if (line.startsWith('Open ')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`backend exited ${code}: ${stderr.join('\n')}`)));
  });
  const base = /^Kandev is running at (http:\/\/[^/]+)\/$/.exec(lines[0] ?? '')?.[1];
  const open = /^Open (\S+) to sign in \(the token is kept in (.+)\)\.$/.exec(lines[1] ?? '');
  if (!base || !open) throw new Error(`unexpected banner: ${lines.join(' | ')}`);
  /** The first logged event of this name: stderr is its own pipe, so it may follow stdout's banner. */
  const logged = (event: string) =>
    new Promise<Record<string, unknown>>((resolve) => {
      const parse = (line: string) => {
        try {
          const record = JSON.parse(line) as Record<string, unknown>;
          return record.event === event ? record : undefined;
        } catch {
          return undefined;
        }
      };
      const seen = stderr.map(parse).find(Boolean);
      if (seen) return resolve(seen);
      const onLine = (line: string) => {
        const record = parse(line);
        if (!record) return;
        stderrLines.off('line', onLine);
        resolve(record);
      };
      stderrLines.on('line', onLine);
    });
  return { child, base, signIn: open[1] as string, keptIn: open[2] as string, stderr, logged };
}

async function stop(child: ChildProcess): Promise<void> {
  running.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}

const mode = (path: string) => statSync(path).mode & 0o777;

async function status(url: string, token?: string): Promise<number> {
  return (await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {}, redirect: 'manual' })).status;
}

describe('access token on disk and the start link', () => {
  const home = join(root, 'home');

  it('first start: generates a 0600 token in a 0700 KANDEV_HOME, prints the sign-in URL once, never logs the token', async () => {
    const first = await start(home);
    const tokenFile = join(home, ACCESS_TOKEN_FILE);
    const token = readFileSync(tokenFile, 'utf8').trim();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.signIn).toBe(`${first.base}/?token=${token}`);
    expect(first.keptIn).toBe(tokenFile);
    expect(mode(home)).toBe(0o700);
    expect(mode(tokenFile)).toBe(0o600);

    // The printed link works; the API wants the token.
    expect(await status(first.signIn)).toBe(303);
    expect(await status(`${first.base}/api/tasks`)).toBe(401);
    expect(await status(`${first.base}/api/tasks`, token)).toBe(200);
    // A write puts the database in WAL mode with its -wal and -shm files: all private.
    const put = await fetch(`${first.base}/api/settings`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{"locale":"pt-pt"}',
    });
    expect(put.status).toBe(200);
    for (const file of ['kandev.db', 'kandev.db-wal', 'kandev.db-shm']) {
      expect(existsSync(join(home, file))).toBe(true);
      expect(mode(join(home, file))).toBe(0o600);
    }
    expect(mode(join(home, 'logs'))).toBe(0o700);
    expect(mode(join(home, 'logs/backend.log'))).toBe(0o600);

    await stop(first.child);
    expect(await first.logged('access_ready')).toMatchObject({ event: 'access_ready' });
    expect(first.stderr.join('\n')).not.toContain(token);
    expect(readFileSync(join(home, 'logs/backend.log'), 'utf8')).not.toContain(token);
  });

  it('next start: the same token (links keep working); loosened modes are tightened again', async () => {
    const token = readFileSync(join(home, ACCESS_TOKEN_FILE), 'utf8').trim();
    chmodSync(home, 0o755);
    chmodSync(join(home, 'kandev.db'), 0o644);
    const again = await start(home);
    expect(again.signIn).toBe(`${again.base}/?token=${token}`);
    expect(mode(home)).toBe(0o700);
    expect(mode(join(home, 'kandev.db'))).toBe(0o600);
    expect(mode(join(home, ACCESS_TOKEN_FILE))).toBe(0o600);
    await stop(again.child);
    expect(again.stderr.join('\n')).not.toContain('access_token_replaced');
  });

  it('KANDEV_TOKEN fixes the token for scripted use and writes no token file', async () => {
    const scripted = join(root, 'scripted');
    const fixed = await start(scripted, { KANDEV_TOKEN: 'scripted-token-0123456789' });
    expect(fixed.signIn).toBe(`${fixed.base}/?token=scripted-token-0123456789`);
    expect(fixed.keptIn).toBe('KANDEV_TOKEN');
    expect(existsSync(join(scripted, ACCESS_TOKEN_FILE))).toBe(false);
    expect(await status(`${fixed.base}/api/tasks`, 'scripted-token-0123456789')).toBe(200);
    expect(await status(`${fixed.base}/api/tasks`)).toBe(401);
    await stop(fixed.child);
    expect(fixed.stderr.join('\n')).not.toContain('scripted-token-0123456789');
  });

  it('a non-loopback bind logs where it listens and still requires the token', async () => {
    const exposedHome = join(root, 'exposed');
    const exposed = await start(exposedHome, { KANDEV_HOST: '0.0.0.0' });
    const token = readFileSync(join(exposedHome, ACCESS_TOKEN_FILE), 'utf8').trim();
    const port = new URL(exposed.base).port;
    const warning = await exposed.logged('backend_exposed');
    expect(warning).toMatchObject({ level: 'warn', host: '0.0.0.0', port: Number(port) });
    const local = `http://127.0.0.1:${port}`;
    // The printed link opens through loopback here (0.0.0.0 is no address a browser should use).
    expect(exposed.signIn).toBe(`${local}/?token=${token}`);
    expect(await status(`${local}/api/health`)).toBe(200);
    expect(await status(`${local}/api/tasks`)).toBe(401);
    expect(await status(`${local}/`)).toBe(401);
    expect(await status(`${local}/api/tasks`, token)).toBe(200);
    await stop(exposed.child);
  });
});

describe('a token file this backend did not write is replaced, never trusted', () => {
  const valid = 'planted-token-0123456789abcdef';
  const cases: Array<{ name: string; reason: string; plant(file: string, home: string): void; oldToken?: string }> = [
    { name: 'garbage bytes', reason: 'not_a_token', plant: (file) => writeFileSync(file, Buffer.from([0, 255, 10, 13, 0x80, 0x41]), { mode: 0o600 }) },
    { name: 'too short', reason: 'not_a_token', plant: (file) => writeFileSync(file, 'abc\n', { mode: 0o600 }), oldToken: 'abc' },
    { name: 'too long', reason: 'not_a_token', plant: (file) => writeFileSync(file, `${'a'.repeat(5000)}\n`, { mode: 0o600 }) },
    { name: 'two tokens', reason: 'not_a_token', plant: (file) => writeFileSync(file, `${valid}\n${valid}\n`, { mode: 0o600 }) },
    {
      name: 'readable by others (mode 0644)',
      reason: 'open_mode',
      plant: (file) => {
        writeFileSync(file, `${valid}\n`, { mode: 0o600 });
        chmodSync(file, 0o644);
      },
      oldToken: valid,
    },
    {
      name: 'a symbolic link to another file',
      reason: 'not_a_file',
      plant: (file, home) => {
        const elsewhere = join(home, 'elsewhere');
        writeFileSync(elsewhere, `${valid}\n`, { mode: 0o600 });
        symlinkSync(elsewhere, file);
      },
      oldToken: valid,
    },
  ];

  it.each(cases)(
    '$name: a fresh 0600 token takes its place, the log says why, the new token works and the old content is refused',
    async ({ reason, plant, oldToken }) => {
      const home = mkdtempSync(join(root, 'tampered-'));
      const file = join(home, ACCESS_TOKEN_FILE);
      plant(file, home);
      const started = await start(home);
      const replaced = await started.logged('access_token_replaced');
      expect(replaced).toMatchObject({ level: 'warn', reason, file });
      expect(lstatSync(file).isFile()).toBe(true);
      expect(mode(file)).toBe(0o600);
      const token = readFileSync(file, 'utf8').trim();
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(started.signIn).toBe(`${started.base}/?token=${token}`);
      expect(await status(`${started.base}/api/access`, token)).toBe(200);
      if (oldToken) expect(await status(`${started.base}/api/access`, oldToken)).toBe(401);
      if (reason === 'not_a_file') expect(readFileSync(join(home, 'elsewhere'), 'utf8')).toBe(`${valid}\n`);
      await stop(started.child);
      expect(started.stderr.join('\n')).not.toContain(token);
      // The next start keeps the fresh token: it is this backend's own now.
      const again = await start(home);
      expect(again.signIn).toBe(`${again.base}/?token=${token}`);
      await stop(again.child);
      expect(again.stderr.join('\n')).not.toContain('access_token_replaced');
    },
  );

  it('a folder in its place stops the start with an error naming the file (it is not ours to remove)', async () => {
    const home = mkdtempSync(join(root, 'folder-'));
    mkdirSync(join(home, ACCESS_TOKEN_FILE));
    await expect(start(home)).rejects.toThrow(/cannot keep the access token in .*access-token: a folder is in its place/);
  });

  it('deleting the file revokes: the next start makes a new token and the old one is refused', async () => {
    const home = mkdtempSync(join(root, 'revoke-'));
    const first = await start(home);
    const old = readFileSync(join(home, ACCESS_TOKEN_FILE), 'utf8').trim();
    await stop(first.child);
    unlinkSync(join(home, ACCESS_TOKEN_FILE));
    const second = await start(home);
    const fresh = readFileSync(join(home, ACCESS_TOKEN_FILE), 'utf8').trim();
    expect(fresh).not.toBe(old);
    expect(await status(`${second.base}/api/access`, old)).toBe(401);
    expect(await status(`${second.base}/api/access`, fresh)).toBe(200);
    await stop(second.child);
  });
});
