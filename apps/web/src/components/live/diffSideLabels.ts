import type * as Monaco from 'monaco-editor';
import type { MonacoApi } from '../../lib/monaco/monacoApi.js';

/** What a screen reader names each side's text box. */
export interface DiffSideLabels {
  original: string;
  modified: string;
}

/**
 * Names each side of a diff editor and keeps the names there. Monaco's diff editor takes
 * `originalAriaLabel`/`modifiedAriaLabel` when it is made, but it derives its sides' options again
 * right after (and on every option change, and whenever it switches between side by side and
 * inline) from the options that changed alone, and each time it sets the sides' `ariaLabel` to ''
 * unless a label was among them: the sides' text boxes end up unnamed. So each side is named
 * directly, and named again whenever Monaco changes its label. `labels` is read at each change,
 * so a new locale reaches the next rename; call the returned `apply` when it changes.
 */
export function keepDiffSideLabels(
  monaco: MonacoApi,
  diffEditor: Monaco.editor.IStandaloneDiffEditor,
  labels: () => DiffSideLabels,
): { apply(): void; dispose(): void } {
  const sides = [
    { editor: diffEditor.getOriginalEditor(), label: () => labels().original },
    { editor: diffEditor.getModifiedEditor(), label: () => labels().modified },
  ];
  const name = (side: (typeof sides)[number]) => {
    const label = side.label();
    if (side.editor.getOption(monaco.editor.EditorOption.ariaLabel) !== label) side.editor.updateOptions({ ariaLabel: label });
  };
  const listeners = sides.map((side) =>
    side.editor.onDidChangeConfiguration((change) => {
      if (change.hasChanged(monaco.editor.EditorOption.ariaLabel)) name(side);
    }),
  );
  const apply = () => sides.forEach(name);
  apply();
  return { apply, dispose: () => listeners.forEach((listener) => listener.dispose()) };
}
