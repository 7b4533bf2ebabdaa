import { describe, expect, it } from 'vitest';
import { BuiltinSuppression, wrapBuiltinProvider } from '../lsp/builtins.js';
import { Emitter } from '@kandev/kit';
import type { LspState } from '../lsp/status.js';
import { watchBuiltinDemand, WorkerGate } from './typescriptWorkerGate.js';

function fakeConnection(initial: LspState) {
  let state = initial;
  const changed = new Emitter<void>();
  return {
    getStatus: () => ({ state }),
    onDidChangeStatus: (listener: () => void) => changed.event(listener),
    set(next: LspState) {
      state = next;
      changed.fire();
    },
  };
}

describe("Monaco's TypeScript worker loads only when a built-in is really needed", () => {
  it('a connection on its way or ready keeps the gate closed; a failed, unavailable or stopped one opens it', async () => {
    for (const ending of ['error', 'unavailable', 'stopping', 'off'] as const) {
      const gate = new WorkerGate();
      const connection = fakeConnection('connecting');
      const watch = watchBuiltinDemand(connection, gate);
      // A detached server (its session off screen) keeps its claim: it reattaches when shown.
      for (const state of ['installing', 'starting', 'ready', 'reconnecting', 'detached', 'ready'] as const) {
        connection.set(state);
        expect(gate.isOpen, state).toBe(false);
      }
      connection.set(ending);
      expect(gate.isOpen, ending).toBe(true);
      await gate.whenOpen();
      watch.dispose();
    }
  });

  it('an editor whose server was not started (auto-start off) needs the built-ins at once', () => {
    const gate = new WorkerGate();
    watchBuiltinDemand(fakeConnection('off'), gate);
    expect(gate.reason).toBe('connection off');
  });

  it('a disposed watch no longer opens the gate', () => {
    const gate = new WorkerGate();
    const connection = fakeConnection('starting');
    watchBuiltinDemand(connection, gate).dispose();
    connection.set('error');
    expect(gate.isOpen).toBe(false);
  });

  it('a built-in provider that answers (model not owned) asks for the worker; a suppressed one does not', () => {
    const suppression = new BuiltinSuppression();
    const claim = suppression.claim('s1', 'typescript', ['hover']);
    let uses = 0;
    const hover = wrapBuiltinProvider('hover', { provideHover: (_model: unknown) => 'builtin' as string | null }, suppression, () => uses++);
    const owned = { uri: { scheme: 'kandev-session', authority: 's1', path: '/a.ts' } };
    expect(hover.provideHover(owned)).toBeNull();
    expect(uses).toBe(0);
    claim.dispose();
    expect(hover.provideHover(owned)).toBe('builtin');
    expect(uses).toBe(1);
  });
});
