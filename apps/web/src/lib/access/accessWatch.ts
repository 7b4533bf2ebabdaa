import { Emitter, type Event } from '@kandev/kit';

/** What the backend said of this page's sign-in when asked (`unreachable`: it did not answer). */
export type AccessCheck = 'ok' | 'refused' | 'unreachable';

export type AccessState = 'signed-in' | 'signed-out';

/**
 * What a reconnecting socket needs to know of the page's sign-in. The browser cannot read the 401
 * of a refused WebSocket upgrade (the socket just closes as if the network failed), so a socket
 * asks `admit()` before each reconnect, and stops for good while the page is signed out.
 */
export interface AccessGate {
  readonly state: AccessState;
  /** False when the sign-in ended (known already, or the backend refuses it now): do not connect. */
  admit(): Promise<boolean>;
  readonly onDidChange: Event<AccessState>;
}

/**
 * The page's sign-in, as one watch for the whole window. It turns signed out when any API answer is
 * a 401 (`refused()`) or when a reconnect's check is refused; every socket then stops retrying
 * (nothing hammers the backend with a dead cookie) and the page says how to sign in again. It
 * never reloads anything: editors keep their text. `recheck()` (the person signed in again in
 * another tab with the start link) turns it signed in, and the sockets come back by themselves.
 */
export class AccessWatch implements AccessGate {
  private current: AccessState = 'signed-in';
  private inFlight: Promise<AccessCheck> | undefined;
  private readonly changes = new Emitter<AccessState>();
  readonly onDidChange: Event<AccessState> = this.changes.event;

  constructor(private readonly probe: () => Promise<AccessCheck>) {}

  get state(): AccessState {
    return this.current;
  }

  /** An answer of the backend refused this page's sign-in. */
  refused(): void {
    this.set('signed-out');
  }

  async admit(): Promise<boolean> {
    if (this.current === 'signed-out') return false;
    const check = await this.ask();
    return check !== 'refused' && this.current === 'signed-in';
  }

  /** Asks the backend again; true when the page is signed in (again). */
  async recheck(): Promise<boolean> {
    const check = await this.ask();
    if (check === 'ok') this.set('signed-in');
    return this.current === 'signed-in';
  }

  /** One question at a time for the whole window, however many sockets wait on it. */
  private ask(): Promise<AccessCheck> {
    this.inFlight ??= this.probe()
      .catch((): AccessCheck => 'unreachable')
      .then((check) => {
        this.inFlight = undefined;
        if (check === 'refused') this.refused();
        return check;
      });
    return this.inFlight;
  }

  private set(state: AccessState): void {
    if (state === this.current) return;
    this.current = state;
    this.changes.fire(state);
  }

  dispose(): void {
    this.changes.dispose();
  }
}
