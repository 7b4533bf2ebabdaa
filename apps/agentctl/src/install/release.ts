import { createHash } from 'node:crypto';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createGunzip } from 'node:zlib';
import { envValue, pathFor } from '../env/taskEnv.js';
import type { InstallContext, Installer } from './installer.js';
import { NO_HOME, unsupportedHostGuidance } from './guidance.js';
import { executableIn, managedRoot, recipeDir, type ReleaseRecipe } from './layout.js';
import { failureText } from './output.js';
import { CANCELLED, type InstallOutcome } from './outcome.js';
import { createStaging, publishDirectory, sweepStale } from './publish.js';
import { errorMessage } from './run.js';

/**
 * A server from its release download, on the recipe's platforms only (rust-analyzer's layout):
 *   <base>/<binary>-<target triple>.gz          the gzip-compressed binary
 *   <base>/<binary>-<target triple>.gz.sha256   its sha256 (first hex token, sha256sum style)
 * The base is the recipe's, unless the task env's `recipe.baseUrlEnv` (or the injected deps) names a mirror.
 * Downloaded into staging, verified, decompressed, chmod 755, then published by one rename.
 */
/** rust-analyzer's archive is about 20 MiB and the binary about 60 MiB; these only stop a runaway server. */
const MAX_ARCHIVE_BYTES = 256 * 1024 * 1024;
const MAX_BINARY_BYTES = 1024 * 1024 * 1024;
const MAX_CHECKSUM_BYTES = 4 * 1024;

export function targetTriple(platform: NodeJS.Platform, arch: string, libc: () => 'gnu' | 'musl'): string | undefined {
  const cpu = arch === 'x64' ? 'x86_64' : arch === 'arm64' ? 'aarch64' : undefined;
  if (cpu === undefined) return undefined;
  if (platform === 'darwin') return `${cpu}-apple-darwin`;
  if (platform === 'linux') return `${cpu}-unknown-linux-${libc()}`;
  return undefined;
}

/** What one release download works with: the recipe and the launcher's name. */
interface Release {
  recipe: ReleaseRecipe;
  binary: string;
}

export function releaseInstaller(recipe: ReleaseRecipe, binary: string): Installer {
  return {
    lockKey: (env, platform) => `${managedRoot(env, platform) ?? ''}\0${recipe.dir}`,
    install: (ctx) => installRelease(ctx, { recipe, binary }),
  };
}

/** A failure whose message is already the actionable summary. */
class ReleaseError extends Error {}

async function installRelease(ctx: InstallContext, release: Release): Promise<InstallOutcome> {
  const { recipe, binary: name } = release;
  const { env, platform, files, output, deps } = ctx;
  if (!(recipe.platforms as readonly string[]).includes(platform))
    return { ok: false, error: { code: 'no_installer', guidance: recipe.otherPlatformGuidance } };
  const triple = targetTriple(platform, deps.arch, deps.libc);
  if (triple === undefined)
    return { ok: false, error: { code: 'no_installer', guidance: unsupportedHostGuidance(name, recipe.manualCommand, platform, deps.arch) } };
  const root = managedRoot(env, platform);
  if (root === undefined) return { ok: false, error: { code: 'failed', message: failureText(NO_HOME) } };
  const target = recipeDir(root, recipe, platform);
  const isComplete = (dir: string) => files.isLaunchable(executableIn(dir, name, platform));
  if (isComplete(target)) return { ok: true, value: executableIn(target, name, platform) };

  const base = (deps.releaseBaseUrl ?? envValue(env, recipe.baseUrlEnv, platform) ?? recipe.baseUrl).replace(/\/+$/, '');
  const archiveUrl = `${base}/${name}-${triple}.gz`;
  const path = pathFor(platform);

  await sweepStale(files, platform, root, deps.clock.now());
  const staging = await createStaging(files, platform, root, recipe.dir);
  try {
    output.note(`Downloading ${archiveUrl}`);
    const expected = await fetchChecksum(ctx, release, `${archiveUrl}.sha256`);
    const archive = path.join(staging, `${name}.gz`);
    const actual = await download(ctx, release, archiveUrl, archive);
    if (actual !== expected) {
      throw new ReleaseError(
        `The ${name} download from ${archiveUrl} failed checksum verification (expected sha256 ${expected}, got ${actual}); ` +
          `nothing was installed. Retry; if it persists, check ${recipe.baseUrlEnv} and any proxy between the task host and the release server.`,
      );
    }
    output.note('Checksum verified; decompressing');
    const binary = executableIn(staging, name, platform);
    await pipeline(files.readStream(archive), createGunzip(), byteLimit(release, MAX_BINARY_BYTES, `decompressed ${name}`), files.writeStream(binary), {
      signal: ctx.signal,
    });
    await files.remove(archive);
    await files.chmod(binary, 0o755);
    if (ctx.signal.aborted) return CANCELLED;
    await publishDirectory(files, platform, staging, target, isComplete);
    return { ok: true, value: executableIn(target, name, platform) };
  } catch (err) {
    if (ctx.signal.aborted) return CANCELLED;
    const summary = err instanceof ReleaseError ? err.message : `Installing ${name} from ${archiveUrl} failed: ${errorMessage(err)}. Nothing was installed.`;
    return { ok: false, error: { code: 'failed', message: failureText(summary, output.tail()) } };
  } finally {
    await files.remove(staging);
  }
}

async function get(ctx: InstallContext, { recipe }: Release, url: string): Promise<Response> {
  let response: Response;
  try {
    response = await ctx.deps.fetch(url, { signal: ctx.signal, redirect: 'follow' });
  } catch (err) {
    if (ctx.signal.aborted) throw err;
    throw new ReleaseError(
      `Could not reach ${url} (${errorMessage(err)}). Check the task host's network access, or set ${recipe.baseUrlEnv} to a reachable mirror.`,
    );
  }
  if (!response.ok || response.body === null) {
    await response.body?.cancel();
    throw new ReleaseError(
      `Downloading ${url} failed with HTTP ${response.status} ${response.statusText}. Check ${recipe.baseUrlEnv} and that a release exists for this platform.`,
    );
  }
  return response;
}

async function fetchChecksum(ctx: InstallContext, release: Release, url: string): Promise<string> {
  const response = await get(ctx, release, url);
  const chunks: Buffer[] = [];
  await pipeline(
    bodyStream(response),
    byteLimit(release, MAX_CHECKSUM_BYTES, 'checksum file'),
    new Transform({
      transform(chunk: Buffer, _enc, done: TransformCallback) {
        chunks.push(chunk);
        done();
      },
    }),
    { signal: ctx.signal },
  );
  const token = Buffer.concat(chunks).toString('utf8').trim().split(/\s+/)[0] ?? '';
  if (!/^[0-9a-fA-F]{64}$/.test(token)) throw new ReleaseError(`${url} does not hold a sha256 checksum; refusing to install an unverified ${release.binary}.`);
  return token.toLowerCase();
}

/** Streams `url` to a staging file; returns the sha256 of what was written. */
async function download(ctx: InstallContext, release: Release, url: string, to: string): Promise<string> {
  const response = await get(ctx, release, url);
  const hash = createHash('sha256');
  const hashing = new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      hash.update(chunk);
      done(null, chunk);
    },
  });
  await pipeline(bodyStream(response), byteLimit(release, MAX_ARCHIVE_BYTES, `${release.binary} archive`), hashing, ctx.files.writeStream(to), {
    signal: ctx.signal,
  });
  return hash.digest('hex');
}

function bodyStream(response: Response): Readable {
  return Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>);
}

function byteLimit({ recipe }: Release, max: number, what: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      seen += chunk.length;
      if (seen > max) done(new ReleaseError(`The ${what} is larger than ${max} bytes; refusing it. Check ${recipe.baseUrlEnv}.`));
      else done(null, chunk);
    },
  });
}
