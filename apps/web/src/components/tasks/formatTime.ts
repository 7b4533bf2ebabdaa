const TIME_TODAY: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };
const DATE_AND_TIME: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' };

/**
 * Formatters by locale and form, made once: building an Intl.DateTimeFormat costs far more than
 * using one (the session view's header re-renders with every status change, and the formatter it
 * built each time was a few percent of a page load's script in a profile).
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(locale: string, sameDay: boolean): Intl.DateTimeFormat {
  const key = `${sameDay ? 'time' : 'date'}:${locale}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale === 'pseudo' ? 'en' : locale, sameDay ? TIME_TODAY : DATE_AND_TIME);
    formatters.set(key, formatter);
  }
  return formatter;
}

/** A start time as a person reads it in their locale: time today, date and time otherwise. */
export function formatStartTime(iso: string, locale: string, now: Date = new Date()): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  try {
    return formatterFor(locale, at.toDateString() === now.toDateString()).format(at);
  } catch {
    return at.toISOString();
  }
}
