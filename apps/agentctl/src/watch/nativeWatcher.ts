/**
 * The seam to the operating system's file notifications: `@parcel/watcher` (inotify on Linux,
 * FSEvents on macOS, ReadDirectoryChangesW on Windows), the native watcher VS Code uses. Tests
 * inject their own `NativeWatcher`; the workspace watcher never sees the library.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Disposable } from '@kandev/kit';

export interface NativeEvent {
  /** Absolute path. */
  path: string;
  type: 'create' | 'update' | 'delete';
}

export interface NativeWatcher {
  /**
   * Watches `root` recursively, without following symbolic links, skipping the `ignore`d absolute
   * folders (never descended into, so they cost no watch). Rejects when the watch cannot start
   * (ENOSPC when the inotify watch limit is reached); `onError` hears a failure after the start.
   */
  subscribe(root: string, ignore: string[], onEvents: (events: NativeEvent[]) => void, onError: (error: Error) => void): Promise<NativeSubscription>;
}

/** `dispose` stops at once; `close` also waits until the OS watch is released (before the process exits). */
export interface NativeSubscription extends Disposable {
  close(): Promise<void>;
}

/** The addon's file name next to the one-file agentctl bundle (scripts/build.mjs copies it there). */
export const BUNDLED_ADDON_NAME = 'parcel-watcher.node';

interface ParcelBinding {
  subscribe(dir: string, fn: (err: Error | null, events: NativeEvent[]) => void, opts: object): Promise<void>;
  unsubscribe(dir: string, fn: (err: Error | null, events: NativeEvent[]) => void, opts: object): Promise<void>;
}

const requireHere = createRequire(import.meta.url);

/**
 * The addon beside the bundle (how it ships, also into a container at /opt/kandev), else the
 * platform package @parcel/watcher installs (running from sources). Throws when neither loads.
 */
function loadBinding(): ParcelBinding {
  const beside = join(dirname(fileURLToPath(import.meta.url)), BUNDLED_ADDON_NAME);
  if (existsSync(beside)) return requireHere(beside) as ParcelBinding;
  const libc = process.platform === 'linux' ? (isMusl() ? '-musl' : '-glibc') : '';
  return requireHere(`@parcel/watcher-${process.platform}-${process.arch}${libc}`) as ParcelBinding;
}

function isMusl(): boolean {
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return report?.header?.glibcVersionRuntime === undefined;
}

let binding: ParcelBinding | undefined;

/**
 * The addon's options for one watch. The backend is named on Linux: left to autodetect, the addon
 * first asks a shell whether watchman is installed and never reaps that `sh`, leaving a zombie
 * child in agentctl for every backend it starts. Elsewhere the platform default has no such check
 * worth avoiding here (macOS and Windows builds are not run by agentctl today).
 */
export function parcelOptions(platform: NodeJS.Platform, ignore: string[]): { ignorePaths: string[]; backend?: 'inotify' } {
  // Plain folder paths only (no globs): the addon then skips them while crawling.
  return platform === 'linux' ? { ignorePaths: ignore, backend: 'inotify' } : { ignorePaths: ignore };
}

/** @parcel/watcher, loaded on first use; a load failure rejects the subscribe (polling takes over). */
export const parcelWatcher: NativeWatcher = {
  async subscribe(root, ignore, onEvents, onError) {
    binding ??= loadBinding();
    const native = binding;
    const listener = (err: Error | null, events: NativeEvent[]) => {
      if (err) onError(err);
      else onEvents(events);
    };
    const options = parcelOptions(process.platform, ignore);
    await native.subscribe(root, listener, options);
    let closed: Promise<void> | undefined;
    const close = () => (closed ??= native.unsubscribe(root, listener, options).catch(() => undefined));
    return {
      dispose: () => void close(),
      close,
    };
  },
};
