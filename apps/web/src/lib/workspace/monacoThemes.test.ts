import { vs, vs_dark } from 'monaco-editor/esm/vs/editor/standalone/common/themes.js';
import { describe, expect, it } from 'vitest';
import type { MonacoApi } from '../monaco/monacoApi.js';
import { DARK_EDITOR_THEME, defineEditorThemes, LIGHT_EDITOR_THEME } from './monacoThemes.js';

interface TokenRule {
  token: string;
  foreground?: string;
}
interface ThemeData {
  rules: readonly TokenRule[];
  colors: Readonly<Record<string, string>>;
}

/** The themes as the app defines them, caught from a stand-in of Monaco's `defineTheme`. */
function definedThemes(): Map<string, ThemeData> {
  const themes = new Map<string, ThemeData>();
  const monaco = { editor: { defineTheme: (name: string, data: ThemeData) => themes.set(name, data) } } as unknown as MonacoApi;
  defineEditorThemes(monaco);
  return themes;
}

/** WCAG 2 relative luminance of `#rrggbb` or `rrggbb`. */
function luminance(hex: string): number {
  const channels = [0, 2, 4].map((i) => parseInt(hex.replace('#', '').slice(i, i + 2), 16) / 255);
  const linear = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * linear[0]! + 0.7152 * linear[1]! + 0.0722 * linear[2]!;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** Each token's foreground as the editor draws it: the base theme's rules with the app's on top (inherit: true). */
function effectiveForegrounds(base: ThemeData, own: ThemeData): Map<string, string> {
  const colours = new Map<string, string>();
  for (const rule of [...base.rules, ...own.rules]) if (rule.foreground) colours.set(rule.token || '(default)', rule.foreground);
  return colours;
}

describe('editor themes', () => {
  const themes = definedThemes();
  const cases = [
    { name: LIGHT_EDITOR_THEME, base: vs },
    { name: DARK_EDITOR_THEME, base: vs_dark },
  ];

  it.each(cases)('every token colour of $name reaches 4.5:1 on its background', ({ name, base }) => {
    const own = themes.get(name)!;
    const background = own.colors['editor.background'] ?? base.colors['editor.background']!;
    const failing = [...effectiveForegrounds(base, own)]
      .map(([token, colour]) => ({ token, colour, ratio: Number(contrast(colour, background).toFixed(2)) }))
      .filter(({ ratio }) => ratio < 4.5);
    expect(failing).toEqual([]);
  });
});
