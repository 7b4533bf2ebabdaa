import { useEffect, useRef } from 'react';
import type * as Monaco from 'monaco-editor';
import type { MonacoApi } from '../../lib/lsp/providers/host.js';
import { keepHiddenFindWidgetInert } from '../../lib/monaco/hiddenFindWidget.js';
import { caretFollowsReducedMotion } from '../../lib/monaco/reducedMotion.js';
import type { SessionWorkspace } from '../../lib/workspace/sessionWorkspace.js';

interface CodeEditorProps {
  monaco: MonacoApi;
  workspace: SessionWorkspace;
  path: string;
  revealSeq: number;
  onSave(): void;
  /** The editor now shows `path`'s model (and where its caret is): the status bar follows it. */
  onShown?(path: string, cursor: { line: number; column: number }): void;
  /** The editor went away (unmounted): no file is shown by it any more. */
  onHidden?(): void;
}

/**
 * One Monaco editor per session view; tabs swap session models in and out of it (keeping each
 * model's view state). Reveals requested for this session's active model apply at once (S37).
 */
export function CodeEditor({ monaco, workspace, path, revealSeq, onSave, onShown, onHidden }: CodeEditorProps) {
  const container = useRef<HTMLDivElement>(null);
  const editorRef = useRef<Monaco.editor.IStandaloneCodeEditor | null>(null);
  const viewStates = useRef(new Map<string, Monaco.editor.ICodeEditorViewState | null>());
  const shownPath = useRef<string | undefined>(undefined);
  const saveRef = useRef(onSave);
  saveRef.current = onSave;
  const shownRef = useRef(onShown);
  shownRef.current = onShown;
  const hiddenRef = useRef(onHidden);
  hiddenRef.current = onHidden;

  useEffect(() => {
    if (!container.current) return;
    const editor = monaco.editor.create(container.current, {
      model: null,
      automaticLayout: true,
      minimap: { enabled: false },
      fixedOverflowWidgets: true,
      'semanticHighlighting.enabled': true,
      scrollBeyondLastLine: false,
      // On-type formatting providers exist only where the language's switch is on (docs/editing.md).
      formatOnType: true,
      // Tag pairs renamed together where a server offers linked editing ranges (providers/linkedEditing.ts).
      linkedEditing: true,
      lightbulb: { enabled: monaco.editor.ShowLightbulbIconMode.OnCode },
      // A completion's detail (its type) is read in the details pane (Ctrl+Space), not inline in
      // the focused row: inline it is text the row's accessible name does not carry (a screen
      // reader and a voice command disagree on the row's name), dimmed below AA contrast.
      suggest: { showInlineDetails: false },
      // No inline completion provider is ever registered (LSP inline completions are not offered
      // here), yet with this on Monaco's inline-completions model re-derives its state and arms a
      // fetch timer on every keystroke, for nothing (69 of 283 ms of typing script in a 20-key
      // profile; the page's CPU per typed line 15 % lower without it).
      inlineSuggest: { enabled: false },
    });
    const findWidget = keepHiddenFindWidgetInert(editor);
    const caret = caretFollowsReducedMotion(editor);
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => saveRef.current());
    const cursor = editor.onDidChangeCursorPosition((e) => {
      if (shownPath.current) shownRef.current?.(shownPath.current, { line: e.position.lineNumber, column: e.position.column });
    });
    editorRef.current = editor;
    return () => {
      editorRef.current = null;
      shownPath.current = undefined;
      cursor.dispose();
      findWidget.dispose();
      caret.dispose();
      editor.dispose();
      hiddenRef.current?.();
    };
  }, [monaco]);

  useEffect(() => {
    const editor = editorRef.current;
    const model = workspace.modelOf(path);
    if (!editor || !model) return;
    if (editor.getModel() !== model) {
      if (shownPath.current) viewStates.current.set(shownPath.current, editor.saveViewState());
      shownPath.current = path;
      editor.setModel(model);
      // Large-file mode: what costs per keystroke or per screen in a huge file is off for it.
      const large = workspace.largeFile(path) !== undefined;
      editor.updateOptions({
        folding: !large,
        occurrencesHighlight: large ? 'off' : 'singleFile',
        wordBasedSuggestions: large ? 'off' : 'currentDocument',
        stickyScroll: { enabled: !large },
      });
      const state = viewStates.current.get(path);
      if (state) editor.restoreViewState(state);
      const at = editor.getPosition();
      shownRef.current?.(path, { line: at?.lineNumber ?? 1, column: at?.column ?? 1 });
    }
    const position = workspace.takeReveal(path);
    if (position) {
      editor.setPosition(position);
      editor.revealPositionInCenter(position);
      editor.focus();
    }
  }, [workspace, path, revealSeq]);

  return <div ref={container} className="code-editor" data-testid="editor" data-path={path} />;
}
