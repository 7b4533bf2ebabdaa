import type { MonacoApi } from '../monaco/monacoApi.js';

/**
 * Monaco's themes with the colours that fail WCAG AA contrast (4.5:1) on their own background
 * replaced; everything else is Monaco's `vs` and `vs-dark`:
 * - dark comments: #608b4e on #1e1e1e is 4.2:1; #6a9955 is 5.0:1;
 * - the dimmed line number of the final newline: 40 % of the line-number colour (1.8:1 on both
 *   backgrounds); it gets the line-number colour itself (light #237893 5.3:1, dark #858585 4.6:1);
 * - find matches: Monaco fills them (dark #515c6a current, orange at a third for the others; light
 *   #a8ac94), which takes keyword blue under them to 2.5-3.7:1. They are outlined instead, so text
 *   keeps its contrast with the editor's background: the current match 2 px, the others 1 px, each
 *   border 3:1 or more against the background (non-text contrast);
 * - light hover: its #f3f3f3 background takes the teal of types (#008080) to 4.3:1; the hover is
 *   white like the editor, set off by its border;
 * - word highlights (the occurrences of the symbol at the caret): Monaco's grey fill takes teal to
 *   3.2:1 (light) and keyword blue below 4.5:1 (dark); they are outlined like find matches, the
 *   reads in grey, the writes in blue, each border 3:1 or more against the background.
 */
export const DARK_EDITOR_THEME = 'kandev-dark';
export const LIGHT_EDITOR_THEME = 'kandev-light';

export function defineEditorThemes(monaco: MonacoApi): void {
  monaco.editor.defineTheme(DARK_EDITOR_THEME, {
    base: 'vs-dark',
    inherit: true,
    rules: [{ token: 'comment', foreground: '6a9955' }],
    colors: {
      'editorLineNumber.dimmedForeground': '#858585',
      ...outlinedFindMatches({ current: '#ffd24d', other: '#d18616' }),
      ...outlinedWordHighlights({ read: '#8a8a8a', write: '#3794ff' }),
    },
  });
  monaco.editor.defineTheme(LIGHT_EDITOR_THEME, {
    base: 'vs',
    inherit: true,
    rules: [],
    colors: {
      'editorLineNumber.dimmedForeground': '#237893',
      ...outlinedFindMatches({ current: '#8a4500', other: '#c96a00' }),
      ...outlinedWordHighlights({ read: '#8a8a8a', write: '#0e639c' }),
      'editorHoverWidget.background': '#ffffff',
    },
  });
}

/** Find matches drawn as outlines over the editor's own background: no fill under the text. */
function outlinedFindMatches(border: { current: string; other: string }): Record<string, string> {
  return {
    'editor.findMatchBackground': '#00000000',
    'editor.findMatchBorder': border.current,
    'editor.findMatchHighlightBackground': '#00000000',
    'editor.findMatchHighlightBorder': border.other,
  };
}

/** Occurrences of the symbol at the caret as outlines: reads and textual matches in one colour, writes in another. */
function outlinedWordHighlights(border: { read: string; write: string }): Record<string, string> {
  return {
    'editor.wordHighlightBackground': '#00000000',
    'editor.wordHighlightBorder': border.read,
    'editor.wordHighlightTextBackground': '#00000000',
    'editor.wordHighlightTextBorder': border.read,
    'editor.wordHighlightStrongBackground': '#00000000',
    'editor.wordHighlightStrongBorder': border.write,
  };
}
