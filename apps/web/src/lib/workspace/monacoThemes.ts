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
 *   reads in grey, the writes in blue, each border 3:1 or more against the background;
 * - light pure red (#ff0000: CSS property names, HTML meta content, SQL strings) is 4.0:1 on
 *   white; #e50000 (as VS Code's Light+ draws them) is 4.8:1. Dark SQL strings are pure red too
 *   (4.1:1 on #1e1e1e); they get the colour of every other dark string, #ce9178 (6.3:1).
 * - diffs: Monaco tints changed lines and fills the changed characters over the tint (dark comments
 *   #6a9955 on its inserted text 2.3:1, light numbers #098658 on removed text 2.4:1). The changed
 *   characters are outlined instead (3:1 or more against the background) and the line tints keep
 *   every token colour, and the line numbers beside them, at 4.5:1: light tints of luminance 0.95
 *   or more, dark ones of 0.013 or less (the editor's own #1e1e1e; its line numbers #858585 are
 *   4.6:1 on it). Within that bound each tint takes as much colour as it can hold, so a changed
 *   line shows: green weighs most in luminance, so the light inserted tint can be a clear
 *   #ebffeb, while the light removed one cannot be redder than #fff8f8 (its line is marked too by
 *   the − beside it, the hatched gap facing it and the overview ruler); the dark ones are #0d220f
 *   and #331313. Light numbers (#098658, 4.6:1 on white) would fall below on any tint: they are
 *   #067a4f (5.4:1 on white, 5.1:1 on the tints); Pug's tag ids and classes (#4f76ac, 4.65:1 on
 *   white, 4.4:1 on the tints) are #3f66a0 (5.5:1 on the tints).
 * - greys and slates of the markup and SQL grammars: light annotations and HTML/XML metatags
 *   (#808080, 3.9:1 on white) are #6e6e6e (5.1:1), light SQL operators (#778899, 3.6:1) #5a6a7a
 *   (5.6:1); dark HTML/XML delimiters (#808080, 4.2:1 on #1e1e1e) are #909090 (5.2:1).
 * - dark token colours a shade too deep for #1e1e1e: predefined variables (#4864aa, 2.9:1) are
 *   #6d8ad6 (5.0:1), Pug's tag ids and classes (#4f76ac, 3.6:1) #6f95cf (5.5:1), regular
 *   expressions (#b46695, 4.2:1) #c27aa5 (5.3:1), annotations (#cc6666, 4.49:1) #d47272 (5.1:1).
 * monacoThemes.test.ts holds every token colour of both themes to 4.5:1 on its background.
 * The colour picker's header label is drawn on the picked colour itself, with black or white text
 * by a rough brightness test (white on #ff0000 is 4.0:1); styles/workbench.css sets it on a chip
 * of the widget's own background instead, whatever the colour.
 */
export const DARK_EDITOR_THEME = 'kandev-dark';
export const LIGHT_EDITOR_THEME = 'kandev-light';

export function defineEditorThemes(monaco: MonacoApi): void {
  monaco.editor.defineTheme(DARK_EDITOR_THEME, {
    base: 'vs-dark',
    inherit: true,
    rules: [
      { token: 'comment', foreground: '6a9955' },
      { token: 'string.sql', foreground: 'ce9178' },
      ...['delimiter.html', 'delimiter.xml'].map((token) => ({ token, foreground: '909090' })),
      { token: 'variable.predefined', foreground: '6d8ad6' },
      ...['tag.id.pug', 'tag.class.pug'].map((token) => ({ token, foreground: '6f95cf' })),
      { token: 'regexp', foreground: 'c27aa5' },
      { token: 'annotation', foreground: 'd47272' },
    ],
    colors: {
      'editorLineNumber.dimmedForeground': '#858585',
      ...outlinedFindMatches({ current: '#ffd24d', other: '#d18616' }),
      ...outlinedWordHighlights({ read: '#8a8a8a', write: '#3794ff' }),
      ...outlinedDiffChanges({ insertedLine: '#0d220f', removedLine: '#331313', inserted: '#6fbf4f', removed: '#f14c4c' }),
    },
  });
  monaco.editor.defineTheme(LIGHT_EDITOR_THEME, {
    base: 'vs',
    inherit: true,
    rules: [
      ...['attribute.name', 'metatag.content.html', 'string.sql'].map((token) => ({ token, foreground: 'e50000' })),
      ...['number', 'attribute.value.number', 'attribute.value.unit'].map((token) => ({ token, foreground: '067a4f' })),
      ...['tag.id.pug', 'tag.class.pug'].map((token) => ({ token, foreground: '3f66a0' })),
      ...['annotation', 'metatag.html', 'metatag.xml'].map((token) => ({ token, foreground: '6e6e6e' })),
      { token: 'operator.sql', foreground: '5a6a7a' },
    ],
    colors: {
      'editorLineNumber.dimmedForeground': '#237893',
      ...outlinedFindMatches({ current: '#8a4500', other: '#c96a00' }),
      ...outlinedWordHighlights({ read: '#8a8a8a', write: '#0e639c' }),
      ...outlinedDiffChanges({ insertedLine: '#ebffeb', removedLine: '#fff8f8', inserted: '#388a34', removed: '#c72e2e' }),
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

/**
 * A diff's changed lines in light tints and its changed characters outlined, with no fill under
 * the text (styles/workbench.css keeps the outline off whole lines: it marks the characters).
 */
function outlinedDiffChanges(colours: { insertedLine: string; removedLine: string; inserted: string; removed: string }): Record<string, string> {
  return {
    'diffEditor.insertedLineBackground': colours.insertedLine,
    'diffEditor.removedLineBackground': colours.removedLine,
    'diffEditor.insertedTextBackground': '#00000000',
    'diffEditor.removedTextBackground': '#00000000',
    'diffEditor.insertedTextBorder': colours.inserted,
    'diffEditor.removedTextBorder': colours.removed,
  };
}
