import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { MAX_INSTALL_ERROR_BYTES } from '@kandev/protocol';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { findManagedBinary, installLanguageServer, InstallLock, type InstallDeps } from '../../apps/agentctl/src/install/index.js';
import { startReleaseServer, type ReleaseServer } from '../fixtures/release-server/server.js';

/**
 * The rust-analyzer release installer against a local HTTP server on 127.0.0.1 serving a real gzip
 * archive of a tiny executable, with its sha256 (docs/architecture.md section 8: rust-analyzer cannot be fetched here).
 */
const BANNER = 'rust-analyzer 0.0.0-kandev-fixture';
const binary = Buffer.from(`#!/bin/sh\necho "${BANNER}"\n`);
const archive = gzipSync(binary);
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const corrupted = Buffer.from(archive);
corrupted.writeUInt8(corrupted.readUInt8(corrupted.length - 12) ^ 0xff, corrupted.length - 12); // inside the deflate data

const NAME = 'rust-analyzer-x86_64-unknown-linux-gnu.gz';
// The host's CPU and C library are injected so the file name is the same on every machine.
const linuxX64: Partial<InstallDeps> = { arch: 'x64', libc: () => 'gnu' };

let good: ReleaseServer;
let bad: ReleaseServer;
let home: string;
beforeAll(async () => {
  good = await startReleaseServer({ [NAME]: archive, [`${NAME}.sha256`]: `${sha256(archive)}  ${NAME}\n` });
  bad = await startReleaseServer({
    [NAME]: corrupted,
    [`${NAME}.sha256`]: `${sha256(archive)}  ${NAME}\n`,
    'rust-analyzer-x86_64-unknown-linux-musl.gz.sha256': 'not a checksum\n',
    'rust-analyzer-x86_64-unknown-linux-musl.gz': archive,
    'rust-analyzer-aarch64-unknown-linux-gnu.gz.sha256': `${sha256(archive)}\n`,
    'rust-analyzer-aarch64-unknown-linux-gnu.gz': { stallAfter: archive.subarray(0, 10), declaredBytes: archive.length },
  });
});
afterAll(async () => {
  await good.close();
  await bad.close();
});
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'kandev-release-home-'));
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const managed = () => join(home, '.kandev', 'lsp-servers');
const signal = () => new AbortController().signal;

function expectNothingPublished(): void {
  expect(findManagedBinary('rust', { HOME: home }, 'linux')).toBeUndefined();
  const left = existsSync(managed()) ? readdirSync(managed()) : [];
  expect(left).toEqual([]); // no rust/ and no .staging-* either
}

describe.runIf(process.platform === 'linux')('rust-analyzer release installer', () => {
  it('S11: a Linux task host downloads, verifies, unpacks and publishes rust-analyzer into the task HOME, then reuses it', async () => {
    const env = { HOME: home, KANDEV_RUST_ANALYZER_BASE_URL: good.baseUrl };
    const lines: string[] = [];
    const outcome = await installLanguageServer(
      { language: 'rust', env, platform: 'linux', signal: signal(), onOutput: (l) => lines.push(l) },
      { ...linuxX64, lock: new InstallLock() },
    );

    const expected = join(managed(), 'rust', 'rust-analyzer');
    expect(outcome).toEqual({ ok: true, value: expected });
    expect(statSync(expected).mode & 0o777).toBe(0o755);
    expect(execFileSync(expected, { encoding: 'utf8' }).trim()).toBe(BANNER);
    expect(good.requests).toEqual([`/download/${NAME}.sha256`, `/download/${NAME}`]);
    expect(readdirSync(managed())).toEqual(['rust']);
    expect(readdirSync(join(managed(), 'rust'))).toEqual(['rust-analyzer']);
    expect(lines.some((l) => l.includes(NAME))).toBe(true);
    expect(findManagedBinary('rust', env, 'linux')).toBe(expected);

    const again = await installLanguageServer({ language: 'rust', env, platform: 'linux', signal: signal() }, linuxX64);
    expect(again).toEqual(outcome);
    expect(good.requests).toHaveLength(2); // reused, not downloaded again
  });

  it('S12: a corrupted archive is refused with an actionable, bounded error and nothing is published', async () => {
    const outcome = await installLanguageServer(
      { language: 'rust', env: { HOME: home }, platform: 'linux', signal: signal() },
      { ...linuxX64, releaseBaseUrl: bad.baseUrl },
    );
    expect(outcome).toMatchObject({ ok: false, error: { code: 'failed' } });
    const error = (outcome as { error: { message: string } }).error.message;
    expect(error).toContain('failed checksum verification');
    expect(error).toContain(`expected sha256 ${sha256(archive)}, got ${sha256(corrupted)}`);
    expect(error).toContain('KANDEV_RUST_ANALYZER_BASE_URL');
    expect(Buffer.byteLength(error)).toBeLessThanOrEqual(MAX_INSTALL_ERROR_BYTES);
    expectNothingPublished();
  });

  it('S12: a checksum file without a sha256 is refused: nothing unverified is installed', async () => {
    const outcome = await installLanguageServer(
      { language: 'rust', env: { HOME: home }, platform: 'linux', signal: signal() },
      { arch: 'x64', libc: () => 'musl', releaseBaseUrl: bad.baseUrl },
    );
    expect(outcome).toMatchObject({ ok: false, error: { code: 'failed' } });
    expect((outcome as { error: { message: string } }).error.message).toMatch(/does not hold a sha256 checksum; refusing/);
    expectNothingPublished();
  });

  it('S12: a missing release reports the HTTP status and what to check', async () => {
    const outcome = await installLanguageServer(
      { language: 'rust', env: { HOME: home }, platform: 'darwin', signal: signal() },
      { arch: 'arm64', releaseBaseUrl: good.baseUrl },
    );
    expect(outcome).toMatchObject({ ok: false, error: { code: 'failed' } });
    const error = (outcome as { error: { message: string } }).error.message;
    expect(error).toContain('rust-analyzer-aarch64-apple-darwin.gz.sha256 failed with HTTP 404');
    expectNothingPublished();
  });

  it('S12: an unreachable release server is reported as such', async () => {
    const closed = await startReleaseServer({});
    await closed.close();
    const outcome = await installLanguageServer(
      { language: 'rust', env: { HOME: home }, platform: 'linux', signal: signal() },
      { ...linuxX64, releaseBaseUrl: closed.baseUrl },
    );
    expect(outcome).toMatchObject({ ok: false, error: { code: 'failed' } });
    expect((outcome as { error: { message: string } }).error.message).toMatch(/Could not reach .*Check the task host's network access/);
    expectNothingPublished();
  });

  it('S56: tearing down during the download cancels it, removes staging and publishes nothing', async () => {
    const teardown = new AbortController();
    const install = installLanguageServer(
      { language: 'rust', env: { HOME: home }, platform: 'linux', signal: teardown.signal },
      { arch: 'arm64', libc: () => 'gnu', releaseBaseUrl: bad.baseUrl },
    );
    // The download has started once its first bytes landed in a staging directory.
    await vi.waitFor(() => {
      const staging = readdirSync(managed()).find((n) => n.startsWith('.staging-rust-'));
      expect(staging).toBeDefined();
      expect(statSync(join(managed(), staging!, 'rust-analyzer.gz')).size).toBeGreaterThan(0);
    });
    teardown.abort();
    expect(await install).toEqual({ ok: false, error: { code: 'cancelled' } });
    expectNothingPublished();
  });

  it('S11: on a Windows task host rust has no installer and nothing is downloaded', async () => {
    const before = good.requests.length;
    const outcome = await installLanguageServer(
      { language: 'rust', env: { USERPROFILE: 'C:\\Users\\me' }, platform: 'win32', signal: signal() },
      { releaseBaseUrl: good.baseUrl },
    );
    expect(outcome).toMatchObject({ ok: false, error: { code: 'no_installer' } });
    expect(good.requests).toHaveLength(before);
  });
});
