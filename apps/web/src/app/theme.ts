import { DARK_EDITOR_THEME, LIGHT_EDITOR_THEME } from '../lib/workspace/monacoThemes.js';

/** The Settings choice: follow the OS, or pin light or dark. Kept in this browser (localStorage). */
export const THEME_PREFERENCES = ['system', 'light', 'dark'] as const;
export type ThemePreference = (typeof THEME_PREFERENCES)[number];
export type ResolvedTheme = 'light' | 'dark';

export function isThemePreference(value: unknown): value is ThemePreference {
  return typeof value === 'string' && (THEME_PREFERENCES as readonly string[]).includes(value);
}

/** What a preference means given whether the OS prefers dark. */
export function resolveTheme(preference: ThemePreference, systemPrefersDark: boolean): ResolvedTheme {
  if (preference === 'system') return systemPrefersDark ? 'dark' : 'light';
  return preference;
}

/** Monaco's theme for a resolved app theme: vs or vs-dark with AA contrast (lib/workspace/monacoThemes.ts). */
export function monacoThemeFor(theme: ResolvedTheme): string {
  return theme === 'dark' ? DARK_EDITOR_THEME : LIGHT_EDITOR_THEME;
}
