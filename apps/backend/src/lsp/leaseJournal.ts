import type { LeaseId, PersistableLease } from './broker/index.js';

/** Where the journal writes (store/leaseRepository.ts in production). */
export interface LeaseStore {
  save(lease: Omit<PersistableLease, 'signature'>): void;
  delete(id: LeaseId): void;
}

/**
 * Keeps the store's copy of every resumable lease in step with the broker (docs/restarts.md): after
 * each batch of events it asks the broker what changed since the last write and writes only that,
 * so the hot relay path costs a signature comparison per lease and no I/O.
 */
export class LeaseJournal {
  private readonly known = new Map<LeaseId, string>();

  constructor(
    private readonly store: LeaseStore,
    private readonly onError: (err: unknown) => void,
  ) {}

  sync(changes: { save: PersistableLease[]; remove: LeaseId[] }): void {
    for (const { signature, ...lease } of changes.save) {
      try {
        this.store.save(lease);
        this.known.set(lease.id, signature);
      } catch (err) {
        this.onError(err);
      }
    }
    for (const id of changes.remove) {
      try {
        this.store.delete(id);
        this.known.delete(id);
      } catch (err) {
        this.onError(err);
      }
    }
  }

  get signatures(): ReadonlyMap<LeaseId, string> {
    return this.known;
  }
}
