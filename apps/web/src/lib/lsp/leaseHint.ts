import type { LanguageId } from '@kandev/protocol';

/** Storage the lease hints live in (sessionStorage in the browser): per tab, survives a reload. */
export type HintStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function leaseHintKey(sessionId: string, language: LanguageId): string {
  return `kandev.lsp.lease.${sessionId}.${language}`;
}

/**
 * The opaque lease hint of one (session, language). It routes a reattach; it never authorizes.
 * Storage failures (quota, privacy mode) only lose the hint: the backend then admits a new lease.
 */
export class LeaseHints {
  constructor(private readonly storage: HintStorage | undefined) {}

  get(sessionId: string, language: LanguageId): string | undefined {
    try {
      return this.storage?.getItem(leaseHintKey(sessionId, language)) ?? undefined;
    } catch {
      return undefined;
    }
  }

  set(sessionId: string, language: LanguageId, lease: string): void {
    try {
      this.storage?.setItem(leaseHintKey(sessionId, language), lease);
    } catch {
      // the next connect asks for a new lease or claims the most recently detached one
    }
  }

  clear(sessionId: string, language: LanguageId): void {
    try {
      this.storage?.removeItem(leaseHintKey(sessionId, language));
    } catch {
      // nothing to do
    }
  }
}

/** In-memory storage for tests and for environments without sessionStorage. */
export function memoryStorage(): HintStorage & { dump(): Record<string, string> } {
  const map = new Map<string, string>();
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
    dump: () => Object.fromEntries(map),
  };
}
