/**
 * The effective set of dynamic registrations (`client/registerCapability` minus
 * `client/unregisterCapability`), in registration order, as a resuming browser rebuilds providers
 * from it. Bounded by a byte budget so retained lease state stays under its 4 MiB cap.
 */
import { isRecord } from '@kandev/protocol';
import type { Registration, RegistrationParams, Unregistration, UnregistrationParams } from 'vscode-languageserver-protocol';
import { jsonBytes } from './jsonrpc.js';

/** The method whose registrations carry file watchers, matched on the task host. */
export const WATCHED_FILES_METHOD = 'workspace/didChangeWatchedFiles';

export class RegistrationSet {
  private readonly byId = new Map<string, Registration>();
  private bytes = 0;
  /** Moves on every change, so a journal of retained state knows when to write it again. */
  private changes = 0;
  /** The watchers last handed to the task host (as JSON), so an unchanged set is not sent again. */
  private watchersSent = '[]';

  constructor(private readonly maxBytes: number) {}

  /** Would registering these stay within budget? (Checked before a request is forwarded.) */
  fits(params: unknown): boolean {
    return this.bytes + jsonBytes(registrationsOf(params)) <= this.maxBytes;
  }

  /** Applies a successful `client/registerCapability`; false when it does not fit. */
  register(params: unknown): boolean {
    const regs = registrationsOf(params);
    if (!this.fits(params)) return false;
    for (const reg of regs) {
      const previous = this.byId.get(reg.id);
      if (previous) this.bytes -= jsonBytes(previous);
      this.byId.set(reg.id, reg);
      this.bytes += jsonBytes(reg);
    }
    this.changes += 1;
    return true;
  }

  /** Applies a successful `client/unregisterCapability` (LSP spells the field `unregisterations`). */
  unregister(params: unknown): void {
    for (const unreg of unregistrationsOf(params)) {
      const previous = this.byId.get(unreg.id);
      if (!previous) continue;
      this.byId.delete(unreg.id);
      this.bytes -= jsonBytes(previous);
      this.changes += 1;
    }
  }

  /**
   * The file watchers of every `workspace/didChangeWatchedFiles` registration, when they differ from
   * the ones last taken (then they count as taken), else undefined. One server process's set: a
   * restarted server starts a new RegistrationSet, as its new task-host stream starts with none.
   */
  takeChangedWatchers(): unknown[] | undefined {
    const watchers: unknown[] = [];
    for (const reg of this.byId.values()) {
      if (reg.method !== WATCHED_FILES_METHOD || !isRecord(reg.registerOptions)) continue;
      const list = (reg.registerOptions as { watchers?: unknown }).watchers;
      if (Array.isArray(list)) watchers.push(...list);
    }
    const text = JSON.stringify(watchers);
    if (text === this.watchersSent) return undefined;
    this.watchersSent = text;
    return watchers;
  }

  get revision(): number {
    return this.changes;
  }

  list(): Registration[] {
    return [...this.byId.values()];
  }

  get retainedBytes(): number {
    return this.bytes;
  }
}

function registrationsOf(params: unknown): Registration[] {
  const list = isRecord(params) ? (params as Partial<RegistrationParams>).registrations : undefined;
  if (!Array.isArray(list)) return [];
  return list.filter((r): r is Registration => isRecord(r) && typeof r.id === 'string' && typeof r.method === 'string');
}

function unregistrationsOf(params: unknown): Unregistration[] {
  const list = isRecord(params) ? (params as Partial<UnregistrationParams>).unregisterations : undefined;
  if (!Array.isArray(list)) return [];
  return list.filter((u): u is Unregistration => isRecord(u) && typeof u.id === 'string');
}
