import type { Locale } from '@kandev/protocol';
import { LANGUAGE_TAGS } from './catalogs.js';

export type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * The plural form of a count in a locale, reduced to the two forms every catalog carries (`one`
 * and `other`; Chinese spells both the same). Counted copy lives under `<key>.one` / `<key>.other`
 * so every locale has exactly the same keys.
 */
export function pluralForm(locale: Locale, n: number): 'one' | 'other' {
  try {
    return new Intl.PluralRules(LANGUAGE_TAGS[locale]).select(n) === 'one' ? 'one' : 'other';
  } catch {
    return n === 1 ? 'one' : 'other';
  }
}

export function countText(t: Translate, locale: Locale, key: string, n: number, ns = 'lsp'): string {
  return t(`${key}.${pluralForm(locale, n)}`, { ns, n });
}

/**
 * Elapsed time for a person: seconds under a minute, minutes and seconds under an hour, then
 * hours and minutes. Units and their composition come from the locale's catalog (S40); nothing
 * here is an estimate of what remains.
 */
export function formatElapsed(ms: number, t: Translate, locale: Locale): string {
  const total = Math.max(0, Math.floor((Number.isFinite(ms) ? ms : 0) / 1000));
  const unit = (name: 'seconds' | 'minutes' | 'hours', n: number) => countText(t, locale, `elapsed.${name}`, n);
  if (total < 60) return unit('seconds', total);
  if (total < 3600) {
    const minutes = Math.floor(total / 60);
    const seconds = total % 60;
    if (seconds === 0) return unit('minutes', minutes);
    return t('elapsed.minutesSeconds', { ns: 'lsp', minutes: unit('minutes', minutes), seconds: unit('seconds', seconds) });
  }
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  if (minutes === 0) return unit('hours', hours);
  return t('elapsed.hoursMinutes', { ns: 'lsp', hours: unit('hours', hours), minutes: unit('minutes', minutes) });
}
