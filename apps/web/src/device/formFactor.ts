/**
 * Phones (narrow viewport and a coarse pointer) get a plain read-only viewer that never opens an
 * LSP connection (S58). Tablets are coarse but wide, desktops fine-pointed: both get the editor.
 */
export const PHONE_QUERY = '(max-width: 640px) and (pointer: coarse)';

export type FormFactor = 'phone' | 'tablet' | 'desktop';

export function formFactor(matches: (query: string) => boolean): FormFactor {
  if (matches(PHONE_QUERY)) return 'phone';
  if (matches('(pointer: coarse)')) return 'tablet';
  return 'desktop';
}

export function currentFormFactor(): FormFactor {
  if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return 'desktop';
  return formFactor((q) => window.matchMedia(q).matches);
}
