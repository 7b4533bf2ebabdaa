import { describe, expect, it } from 'vitest';
import { guardUnsavedOnLeave } from './unsavedGuard.js';

/**
 * A beforeunload event as the browser hands it: cancelable, with the writable `returnValue` of
 * BeforeUnloadEvent (Node's plain Event has only a getter, and setting it would throw).
 */
const leaving = () =>
  Object.defineProperty(new Event('beforeunload', { cancelable: true }), 'returnValue', { value: undefined, writable: true }) as Event & {
    returnValue: unknown;
  };

describe('leaving the page with unsaved text', () => {
  it('asks the browser to confirm only while some editor holds unsaved text, and stops once disposed', () => {
    const target = new EventTarget();
    let unsaved = false;
    const guard = guardUnsavedOnLeave(() => unsaved, target as unknown as Window);

    const clean = leaving();
    target.dispatchEvent(clean);
    expect(clean.defaultPrevented).toBe(false);
    expect(clean.returnValue).toBeUndefined();

    unsaved = true;
    const dirty = leaving();
    target.dispatchEvent(dirty);
    expect(dirty.defaultPrevented).toBe(true);
    expect(dirty.returnValue).toBe('');

    guard.dispose();
    const after = leaving();
    target.dispatchEvent(after);
    expect(after.defaultPrevented).toBe(false);
  });
});
