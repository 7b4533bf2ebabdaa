import { describe, expect, it } from 'vitest';
import { CLOSED_ON_THEME_SWITCH, themeSwitcher } from './themeSwitch.js';

function fakeMonaco(editors: number) {
  const themes: string[] = [];
  const triggered: string[][] = Array.from({ length: editors }, () => []);
  const monaco = {
    editor: {
      setTheme: (theme: string) => void themes.push(theme),
      getEditors: () => triggered.map((log) => ({ trigger: (_source: string, command: string) => void log.push(command) })),
    },
  };
  return { monaco, themes, triggered };
}

describe('themeSwitcher', () => {
  it('closes the widgets drawn in the old theme on every editor when the theme changes', () => {
    const { monaco, themes, triggered } = fakeMonaco(2);
    const apply = themeSwitcher(monaco);
    apply('kandev-light');
    expect(triggered).toEqual([[], []]);
    apply('kandev-dark');
    expect(themes).toEqual(['kandev-light', 'kandev-dark']);
    expect(triggered).toEqual([[...CLOSED_ON_THEME_SWITCH], [...CLOSED_ON_THEME_SWITCH]]);
  });

  it('leaves open widgets alone when the same theme is applied again', () => {
    const { monaco, triggered } = fakeMonaco(1);
    const apply = themeSwitcher(monaco);
    apply('kandev-dark');
    apply('kandev-dark');
    expect(triggered).toEqual([[]]);
  });
});
