import { ManualClock } from '@kandev/kit';
import type { HostStatusFrame } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import { catalogLanguage } from '../catalog/catalog.js';
import type { InstallOutcome } from '../install/seam.js';
import { runInstallPhase } from './installPhase.js';

describe('the install phase on a manual clock', () => {
  it("tells the browser the installer's newest line at most every 500 ms, and nothing after the install ends", async () => {
    const clock = new ManualClock();
    const frames: HostStatusFrame[] = [];
    let output: (chunk: string) => void = () => undefined;
    let finish: (outcome: InstallOutcome) => void = () => undefined;
    const phase = runInstallPhase(
      {
        language: catalogLanguage('typescript'),
        env: {},
        platform: 'linux',
        workspaceReal: '/workspace',
        signal: new AbortController().signal,
        send: async (frame) => {
          frames.push(frame);
          return true;
        },
        isClosed: () => false,
        log: () => undefined,
        clock,
      },
      (request) => {
        output = request.onOutput;
        return new Promise((resolve) => (finish = resolve));
      },
    );
    await Promise.resolve();
    await Promise.resolve();
    const details = () => frames.flatMap((f) => (f.status === 'installing' && 'detail' in f ? [f.detail] : []));
    output('fetching\n');
    output('added 1 package\nadded 2 packages\n');
    clock.advance(499);
    expect(details()).toEqual([]);
    clock.advance(1);
    expect(details()).toEqual(['added 2 packages']);
    output('linking\n');
    finish({ ok: true, value: '/opt/servers/typescript-language-server' });
    expect(await phase).toEqual({ kind: 'launch', binaryPath: '/opt/servers/typescript-language-server' });
    clock.advance(10_000);
    expect(details()).toEqual(['added 2 packages']);
    expect(frames.map((f) => f.status)).toEqual(['installing', 'installing', 'installed']);
    expect(clock.pending).toBe(0);
  });
});
