import { accessSync, constants, createReadStream, createWriteStream, statSync, type ReadStream, type WriteStream } from 'node:fs';
import { chmod, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';

/**
 * Maps a task-platform path to a path on this machine. Identity in production; a Windows path such
 * as `C:\Users\me\go\bin` maps under a temporary root in tests, so the Windows rules run on Linux
 * against a real file system.
 */
export type ToHostPath = (platformPath: string) => string;

export const identityPath: ToHostPath = (p) => p;

/** A test helper's worth of mapping: `C:\a\b` -> `<root>/C/a/b`, `/a/b` -> `<root>/a/b`. */
export function rootedHostPath(root: string): ToHostPath {
  return (p) =>
    `${root}/${p
      .replace(/^([A-Za-z]):/, '$1')
      .replace(/\\/g, '/')
      .replace(/^\/+/, '')}`;
}

/**
 * The few file operations installers need, always on platform paths. Keeping them behind one object
 * is what lets every installer speak in the task's paths (which it returns and passes to processes)
 * while touching the host's.
 */
export class HostFiles {
  constructor(
    readonly host: ToHostPath,
    private readonly platform: NodeJS.Platform,
  ) {}

  /** A regular file this platform would execute: the X bit on POSIX, mere existence on Windows. */
  isLaunchable(path: string): boolean {
    const hostPath = this.host(path);
    try {
      if (!statSync(hostPath).isFile()) return false;
      if (this.platform !== 'win32') accessSync(hostPath, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  }

  async exists(path: string): Promise<boolean> {
    try {
      await stat(this.host(path));
      return true;
    } catch {
      return false;
    }
  }

  async mkdirp(path: string): Promise<void> {
    await mkdir(this.host(path), { recursive: true });
  }

  /** Creates exactly this directory; fails with EEXIST when it is there, so staging names never collide. */
  async mkdirExclusive(path: string): Promise<void> {
    await mkdir(this.host(path));
  }

  async rename(from: string, to: string): Promise<void> {
    await rename(this.host(from), this.host(to));
  }

  async remove(path: string): Promise<void> {
    await rm(this.host(path), { recursive: true, force: true, maxRetries: 3 });
  }

  async chmod(path: string, mode: number): Promise<void> {
    await chmod(this.host(path), mode);
  }

  async list(path: string): Promise<string[]> {
    try {
      return await readdir(this.host(path));
    } catch {
      return [];
    }
  }

  async modifiedAt(path: string): Promise<number | undefined> {
    try {
      return (await stat(this.host(path))).mtimeMs;
    } catch {
      return undefined;
    }
  }

  readStream(path: string): ReadStream {
    return createReadStream(this.host(path));
  }

  writeStream(path: string): WriteStream {
    return createWriteStream(this.host(path), { flags: 'wx' });
  }
}
