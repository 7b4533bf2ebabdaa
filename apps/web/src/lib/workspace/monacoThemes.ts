import type { MonacoApi } from '../monaco/monacoApi.js';

/**
 * Monaco's themes with the colours that fail WCAG AA contrast (4.5:1) on their own background
 * replaced; everything else is Monaco's `vs` and `vs-dark`:
 * - dark comments: #608b4e on #1e1e1e is 4.2:1; #6a9955 is 5.0:1;
 * - the dimmed line number of the final newline: 40 % of the line-number colour (1.8:1 on both
 *   backgrounds); it gets the line-number colour itself (light #237893 5.3:1, dark #858585 4.6:1).
 */
export const DARK_EDITOR_THEME = 'kandev-dark';
export const LIGHT_EDITOR_THEME = 'kandev-light';

export function defineEditorThemes(monaco: MonacoApi): void {
  monaco.editor.defineTheme(DARK_EDITOR_THEME, {
    base: 'vs-dark',
    inherit: true,
    rules: [{ token: 'comment', foreground: '6a9955' }],
    colors: { 'editorLineNumber.dimmedForeground': '#858585' },
  });
  monaco.editor.defineTheme(LIGHT_EDITOR_THEME, {
    base: 'vs',
    inherit: true,
    rules: [],
    colors: { 'editorLineNumber.dimmedForeground': '#237893' },
  });
}
