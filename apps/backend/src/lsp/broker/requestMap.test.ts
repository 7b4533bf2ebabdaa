import { describe, expect, it } from 'vitest';
import { MAX_PENDING_BROWSER_REQUESTS, MAX_TRACKED_REQUEST_STATE_BYTES } from '@kandev/protocol';
import { RequestMap } from './requestMap.js';

describe('RequestMap', () => {
  it('maps browser ids to server ids per generation, so the same browser id in two generations stays apart', () => {
    const map = new RequestMap();
    expect(map.track(1, 7, 'textDocument/hover', 100, 0).ok).toBe(true);
    expect(map.track(2, 7, 'textDocument/hover', 101, 0).ok).toBe(true);
    expect(map.serverIdFor(1, 7)).toBe(100);
    expect(map.serverIdFor(2, 7)).toBe(101);
    expect(map.serverIdFor(2, '7')).toBeUndefined();
    expect(map.take(100)?.browserId).toBe(7);
    expect(map.take(100)).toBeUndefined();
    expect(map.serverIdFor(1, 7)).toBeUndefined();
  });

  it('bounds: the 257th pending request is refused, and a slot frees when one settles', () => {
    const map = new RequestMap();
    for (let i = 0; i < MAX_PENDING_BROWSER_REQUESTS; i++) expect(map.track(1, i, 'x', i, 0).ok).toBe(true);
    expect(map.track(1, 999, 'x', 999, 0)).toEqual({ ok: false, refusal: 'too_many_pending' });
    map.take(0);
    expect(map.track(1, 999, 'x', 999, 0).ok).toBe(true);
  });

  it('bounds: ids of at most 256 bytes (UTF-8), the 257th byte is refused', () => {
    const map = new RequestMap();
    expect(map.track(1, 'a'.repeat(256), 'x', 1, 0).ok).toBe(true);
    expect(map.track(1, 'a'.repeat(257), 'x', 2, 0)).toEqual({ ok: false, refusal: 'id_too_large' });
    // 128 two-byte characters are 256 bytes; one more is over
    expect(map.track(1, 'é'.repeat(128), 'x', 3, 0).ok).toBe(true);
    expect(map.track(1, 'é'.repeat(129), 'x', 4, 0)).toEqual({ ok: false, refusal: 'id_too_large' });
  });

  it('bounds: tracked state never exceeds 64 KiB, and is returned as entries settle', () => {
    const map = new RequestMap();
    const method = 'm'.repeat(200);
    let refused = 0;
    for (let i = 0; i < MAX_PENDING_BROWSER_REQUESTS; i++) {
      const r = map.track(1, `${'i'.repeat(240)}${String(i).padStart(3, '0')}`, method, i, 0);
      if (!r.ok) {
        expect(r.refusal).toBe('tracked_state_full');
        refused++;
      }
    }
    expect(refused).toBeGreaterThan(0);
    expect(map.bytes).toBeLessThanOrEqual(MAX_TRACKED_REQUEST_STATE_BYTES);
    const before = map.bytes;
    map.take(0);
    expect(map.bytes).toBeLessThan(before);
  });

  it('refuses a browser id already pending in the same generation', () => {
    const map = new RequestMap();
    expect(map.track(1, 'a', 'x', 1, 0).ok).toBe(true);
    expect(map.track(1, 'a', 'x', 2, 0)).toEqual({ ok: false, refusal: 'duplicate_id' });
  });

  it('drainGeneration removes only that generation', () => {
    const map = new RequestMap();
    map.track(1, 1, 'x', 10, 0);
    map.track(1, 2, 'x', 11, 0);
    map.track(2, 1, 'x', 12, 0);
    expect(map.drainGeneration(1).map((e) => e.serverId)).toEqual([10, 11]);
    expect(map.size).toBe(1);
    expect(map.serverIdFor(2, 1)).toBe(12);
    expect(map.bytes).toBeGreaterThan(0);
    map.drainGeneration(2);
    expect(map.bytes).toBe(0);
  });
});
