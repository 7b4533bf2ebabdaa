import type * as Monaco from 'monaco-editor';

/**
 * Editor widgets whose content Monaco colours once, as it draws it, and never again: the code in a
 * hover, in a suggestion's details and in parameter hints is tokenized into classes of the theme
 * of that moment, which the next theme maps to other colours (a hover left open across a switch to
 * light kept dark-theme token colours: 3.86:1 contrast). They are closed when the theme changes;
 * the person opens them again, drawn in the new theme. Widgets that restyle themselves on a theme
 * change (find, peek, rename, the problem navigator) stay open.
 */
export const CLOSED_ON_THEME_SWITCH = ['editor.action.hideHover', 'hideSuggestWidget', 'closeParameterHints'] as const;

/** The part of Monaco's API a theme switch uses. */
export interface ThemedMonaco {
  editor: {
    setTheme(theme: string): void;
    getEditors(): ReadonlyArray<Pick<Monaco.editor.ICodeEditor, 'trigger'>>;
  };
}

/**
 * Sets Monaco's theme and, when it is another theme than the one shown, closes on every editor
 * the widgets drawn in the old one (CLOSED_ON_THEME_SWITCH).
 */
export function themeSwitcher(monaco: ThemedMonaco): (theme: string) => void {
  let shown: string | undefined;
  return (theme) => {
    const switched = shown !== undefined && shown !== theme;
    shown = theme;
    monaco.editor.setTheme(theme);
    if (!switched) return;
    for (const editor of monaco.editor.getEditors()) {
      for (const command of CLOSED_ON_THEME_SWITCH) editor.trigger('theme-switch', command, null);
    }
  };
}
