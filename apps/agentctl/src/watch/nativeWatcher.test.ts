import { mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parcelOptions, parcelWatcher, type NativeSubscription } from './nativeWatcher.js';

/** This process's direct children, as "pid (name) state". */
function childrenOfThisProcess(): string[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(parent) === process.pid ? [`${stat.slice(0, stat.lastIndexOf(')') + 1)} ${state}`] : [];
      } catch {
        return []; // gone between the listing and the read
      }
    });
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('parcelOptions', () => {
  it('names the inotify backend on Linux, so the addon never autodetects', () => {
    expect(parcelOptions('linux', ['/w/node_modules'])).toEqual({ ignorePaths: ['/w/node_modules'], backend: 'inotify' });
  });

  it('leaves other platforms to their default backend', () => {
    expect(parcelOptions('darwin', [])).toEqual({ ignorePaths: [] });
  });
});

describe.runIf(process.platform === 'linux')('parcelWatcher on Linux', () => {
  it('starting a watch leaves no child process behind (no watchman probe through sh)', async () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), 'kandev-native-')));
    cleanups.push(() => rmSync(root, { recursive: true, force: true }));
    expect(childrenOfThisProcess()).toEqual([]);
    const subscription: NativeSubscription = await parcelWatcher.subscribe(
      root,
      [],
      () => undefined,
      () => undefined,
    );
    cleanups.push(() => subscription.close());
    expect(childrenOfThisProcess()).toEqual([]);
  });
});
