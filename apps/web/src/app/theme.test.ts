import { describe, expect, it } from 'vitest';
import { isThemePreference, monacoThemeFor, resolveTheme } from './theme.js';

describe('theme', () => {
  it('System follows the OS; Light and Dark pin it', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    expect(resolveTheme('light', true)).toBe('light');
    expect(resolveTheme('dark', false)).toBe('dark');
  });

  it('accepts only the three preferences and maps Monaco themes', () => {
    expect(['system', 'light', 'dark', 'sepia', undefined].map(isThemePreference)).toEqual([true, true, true, false, false]);
    expect(monacoThemeFor('dark')).toBe('kandev-dark');
    expect(monacoThemeFor('light')).toBe('kandev-light');
  });
});
