import { describe, expect, it, vi } from 'vitest';
import { InstallLock, type SharedInstall } from './lock.js';
import type { InstallOutcome } from './outcome.js';

/** An install the test finishes by hand, recording what it saw. */
function controllable() {
  const runs: Array<{ shared: SharedInstall; finish: (o: InstallOutcome) => void }> = [];
  const task = (shared: SharedInstall) =>
    new Promise<InstallOutcome>((resolve) => {
      runs.push({ shared, finish: resolve });
      shared.signal.addEventListener('abort', () => setTimeout(() => resolve({ ok: false, error: { code: 'cancelled' } }), 5));
    });
  return { runs, task };
}

const flush = () => new Promise((r) => setTimeout(r, 0));
const OK: InstallOutcome = { ok: true, value: '/h/.kandev/lsp-servers/python/node_modules/.bin/pyright-langserver' };

describe('InstallLock', () => {
  it('concurrent requests for one target share one install and its outcome and output', async () => {
    const lock = new InstallLock();
    const { runs, task } = controllable();
    const linesA: string[] = [];
    const linesB: string[] = [];
    const a = lock.run('root\0python', { signal: new AbortController().signal, onOutput: (l) => linesA.push(l) }, task);
    const b = lock.run('root\0python', { signal: new AbortController().signal, onOutput: (l) => linesB.push(l) }, task);
    await flush();
    expect(runs).toHaveLength(1);
    runs[0]!.shared.emit('added 1 package');
    runs[0]!.finish(OK);
    expect(await a).toEqual(OK);
    expect(await b).toEqual(OK);
    expect(linesA).toEqual(['added 1 package']);
    expect(linesB).toEqual(['added 1 package']);
    expect(lock.inFlight).toBe(0);
  });

  it('different targets install independently', async () => {
    const lock = new InstallLock();
    const { runs, task } = controllable();
    void lock.run('root\0python', { signal: new AbortController().signal }, task);
    void lock.run('root\0typescript', { signal: new AbortController().signal }, task);
    await flush();
    expect(runs).toHaveLength(2);
    runs.forEach((r) => r.finish(OK));
  });

  it('a request after a finished install runs the task again, which re-checks and reuses', async () => {
    const lock = new InstallLock();
    let calls = 0;
    const first = await lock.run('k', { signal: new AbortController().signal }, async () => (calls++, OK));
    const second = await lock.run('k', { signal: new AbortController().signal }, async () => (calls++, OK));
    expect([first, second, calls]).toEqual([OK, OK, 2]);
  });

  it('S56: one participant leaving does not cancel the install the other still waits for', async () => {
    const lock = new InstallLock();
    const { runs, task } = controllable();
    const leaving = new AbortController();
    const a = lock.run('k', { signal: leaving.signal }, task);
    const b = lock.run('k', { signal: new AbortController().signal }, task);
    await flush();
    leaving.abort();
    expect(await a).toEqual({ ok: false, error: { code: 'cancelled' } });
    expect(runs[0]!.shared.signal.aborted).toBe(false);
    runs[0]!.finish(OK);
    expect(await b).toEqual(OK);
  });

  it('S56: the last participant leaving cancels the install and resolves only after it drained', async () => {
    const lock = new InstallLock();
    const order: string[] = [];
    const teardown = new AbortController();
    const result = lock.run(
      'k',
      { signal: teardown.signal },
      (shared) =>
        new Promise<InstallOutcome>((resolve) => {
          shared.signal.addEventListener('abort', () =>
            setTimeout(() => {
              order.push('drained');
              resolve({ ok: false, error: { code: 'cancelled' } });
            }, 10),
          );
        }),
    );
    await flush();
    teardown.abort();
    const outcome = await result;
    order.push('resolved');
    expect(outcome).toEqual({ ok: false, error: { code: 'cancelled' } });
    expect(order).toEqual(['drained', 'resolved']);
  });

  it('a request arriving while a cancelled install drains waits for it, then starts a fresh one', async () => {
    const lock = new InstallLock();
    const { runs, task } = controllable();
    const teardown = new AbortController();
    const cancelled = lock.run('k', { signal: teardown.signal }, task);
    await flush();
    teardown.abort();
    const next = lock.run('k', { signal: new AbortController().signal }, task);
    await flush();
    expect(runs).toHaveLength(1); // not joined to the cancelled one, not overlapping it
    expect(await cancelled).toEqual({ ok: false, error: { code: 'cancelled' } });
    await vi.waitFor(() => expect(runs).toHaveLength(2));
    expect(runs[1]!.shared.signal.aborted).toBe(false);
    runs[1]!.finish(OK);
    expect(await next).toEqual(OK);
  });

  it('an installer that throws ends as a failed outcome, not a rejection', async () => {
    const lock = new InstallLock();
    const outcome = await lock.run('k', { signal: new AbortController().signal }, async () => {
      throw new Error('EACCES: permission denied, mkdir');
    });
    expect(outcome).toMatchObject({ ok: false, error: { code: 'failed' } });
    expect((outcome as { error: { message: string } }).error.message).toContain('EACCES');
  });
});
