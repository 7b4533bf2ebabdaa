import { SUPPORTED_EXECUTORS, type ExecutorKind } from '@kandev/protocol';
import type { TaskHostExecutor } from './executor.js';

export type ExecutorLookup = { supported: true; executor: TaskHostExecutor } | { supported: false; message: string };

/**
 * Which executor runs a task kind. Remote Docker, SSH and Sprites are known kinds that this
 * release does not run (docs/architecture.md section 5): their LSP streams close 4004 before anything starts.
 */
export class ExecutorRegistry {
  private readonly byKind = new Map<ExecutorKind, TaskHostExecutor>();

  constructor(executors: TaskHostExecutor[]) {
    for (const executor of executors) this.byKind.set(executor.kind, executor);
  }

  lookup(kind: ExecutorKind): ExecutorLookup {
    const executor = this.byKind.get(kind);
    if (!executor || !isSupportedExecutor(kind)) return { supported: false, message: `the ${kind} executor is not supported` };
    return { supported: true, executor };
  }
}

export function isSupportedExecutor(kind: ExecutorKind): boolean {
  return SUPPORTED_EXECUTORS.includes(kind);
}
