/** A start time as a person reads it in their locale: time today, date and time otherwise. */
export function formatStartTime(iso: string, locale: string, now: Date = new Date()): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const sameDay = at.toDateString() === now.toDateString();
  const options: Intl.DateTimeFormatOptions = sameDay
    ? { hour: '2-digit', minute: '2-digit' }
    : { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' };
  try {
    return new Intl.DateTimeFormat(locale === 'pseudo' ? 'en' : locale, options).format(at);
  } catch {
    return at.toISOString();
  }
}
