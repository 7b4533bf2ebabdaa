import { failureText } from './output.js';
import { CANCELLED, type InstallOutcome } from './outcome.js';
import { errorMessage } from './run.js';

/** One stream asking for an install: its teardown signal and where its progress lines go. */
export interface InstallParticipant {
  signal: AbortSignal;
  onOutput?: (line: string) => void;
}

/** What the running install sees: aborted only when every participant has gone. */
export interface SharedInstall {
  signal: AbortSignal;
  emit(line: string): void;
}

export type InstallTask = (shared: SharedInstall) => Promise<InstallOutcome>;

interface Entry {
  controller: AbortController;
  participants: Set<InstallParticipant>;
  done: Promise<InstallOutcome>;
}

/**
 * Serializes installs per target (managed root + language). Concurrent requests for one target share
 * one install and its outcome; a participant that is torn down leaves (resolving 'cancelled' at once)
 * while the others keep waiting; the install itself is cancelled only when its last participant goes,
 * and that participant resolves only after the cancelled install has drained. A request arriving
 * while a cancelled install still drains waits for it, then starts afresh: two installs of one target
 * never overlap. The task re-checks for an existing install itself, after it holds the lock.
 *
 * In-process only: another agentctl sharing the same HOME is covered by the atomic publish
 * (publish.ts), not by this lock.
 */
export class InstallLock {
  private readonly entries = new Map<string, Entry>();

  async run(key: string, participant: InstallParticipant, task: InstallTask): Promise<InstallOutcome> {
    for (;;) {
      if (participant.signal.aborted) return CANCELLED;
      const current = this.entries.get(key);
      if (!current) break;
      if (!current.controller.signal.aborted) return this.join(current, participant);
      await settledOrAborted(current.done, participant.signal);
    }
    return this.join(this.start(key, task), participant);
  }

  /** Targets with an install in flight or draining (for tests and diagnostics). */
  get inFlight(): number {
    return this.entries.size;
  }

  private start(key: string, task: InstallTask): Entry {
    const controller = new AbortController();
    const participants = new Set<InstallParticipant>();
    const emit = (line: string) => {
      for (const p of participants) {
        try {
          p.onOutput?.(line);
        } catch {
          // One stream's failing progress sink must not break the install the others share.
        }
      }
    };
    const entry: Entry = { controller, participants, done: Promise.resolve(CANCELLED) };
    this.entries.set(key, entry);
    entry.done = (async (): Promise<InstallOutcome> => {
      try {
        return await task({ signal: controller.signal, emit });
      } catch (err) {
        // A defect in an installer still ends as a value the stream can report, never a crash.
        return { ok: false, error: { code: 'failed', message: failureText(`The installer stopped unexpectedly: ${errorMessage(err)}`) } };
      } finally {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      }
    })();
    return entry;
  }

  private join(entry: Entry, participant: InstallParticipant): Promise<InstallOutcome> {
    entry.participants.add(participant);
    return new Promise<InstallOutcome>((resolve) => {
      const onAbort = () => {
        entry.participants.delete(participant);
        if (entry.participants.size > 0) {
          resolve(CANCELLED);
          return;
        }
        entry.controller.abort();
        void entry.done.then(() => resolve(CANCELLED));
      };
      if (participant.signal.aborted) {
        onAbort();
        return;
      }
      participant.signal.addEventListener('abort', onAbort, { once: true });
      void entry.done.then((outcome) => {
        participant.signal.removeEventListener('abort', onAbort);
        entry.participants.delete(participant);
        resolve(participant.signal.aborted ? CANCELLED : outcome);
      });
    });
  }
}

/** Waits for a draining install or for this participant's teardown, whichever is first. */
function settledOrAborted(done: Promise<unknown>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const onAbort = () => resolve();
    signal.addEventListener('abort', onAbort, { once: true });
    void done.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
