import { describe, expect, it } from 'vitest';
import { formatStartTime } from './formatTime.js';

describe('formatStartTime', () => {
  const now = new Date(2026, 11, 8, 15, 0);

  it('shows the time alone for today and the date too for another day, in the locale asked', () => {
    expect(formatStartTime(new Date(2026, 11, 8, 9, 5).toISOString(), 'en-GB', now)).toBe('09:05');
    expect(formatStartTime(new Date(2026, 10, 3, 9, 5).toISOString(), 'en-GB', now)).toBe('3 Nov, 09:05');
    expect(formatStartTime(new Date(2026, 10, 3, 9, 5).toISOString(), 'de', now)).toBe('3. Nov., 09:05');
    // A formatter kept for one locale and form is not reused for another.
    expect(formatStartTime(new Date(2026, 11, 8, 9, 5).toISOString(), 'de', now)).toBe('09:05');
  });

  it('gives the ISO time for a locale Intl refuses and nothing for a date it cannot read', () => {
    const iso = new Date(2026, 11, 8, 9, 5).toISOString();
    expect(formatStartTime(iso, 'not a locale!', now)).toBe(iso);
    expect(formatStartTime('yesterday-ish', 'en', now)).toBe('');
  });
});
