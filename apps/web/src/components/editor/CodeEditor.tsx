import { useEffect, useRef } from 'react';
import type * as Monaco from 'monaco-editor';
import type { MonacoApi } from '../../lib/lsp/providers/host.js';
import type { SessionWorkspace } from '../../lib/workspace/sessionWorkspace.js';

interface CodeEditorProps {
  monaco: MonacoApi;
  workspace: SessionWorkspace;
  path: string;
  revealSeq: number;
  onSave(): void;
}

/**
 * One Monaco editor per session view; tabs swap session models in and out of it (keeping each
 * model's view state). Reveals requested for this session's active model apply at once (S37).
 */
export function CodeEditor({ monaco, workspace, path, revealSeq, onSave }: CodeEditorProps) {
  const container = useRef<HTMLDivElement>(null);
  const editorRef = useRef<Monaco.editor.IStandaloneCodeEditor | null>(null);
  const viewStates = useRef(new Map<string, Monaco.editor.ICodeEditorViewState | null>());
  const shownPath = useRef<string | undefined>(undefined);
  const saveRef = useRef(onSave);
  saveRef.current = onSave;

  useEffect(() => {
    if (!container.current) return;
    const editor = monaco.editor.create(container.current, {
      model: null,
      automaticLayout: true,
      minimap: { enabled: false },
      fixedOverflowWidgets: true,
      'semanticHighlighting.enabled': true,
      scrollBeyondLastLine: false,
    });
    editor.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => saveRef.current());
    editorRef.current = editor;
    return () => {
      editorRef.current = null;
      shownPath.current = undefined;
      editor.dispose();
    };
  }, [monaco]);

  useEffect(() => {
    const editor = editorRef.current;
    const model = workspace.modelOf(path);
    if (!editor || !model) return;
    if (editor.getModel() !== model) {
      if (shownPath.current) viewStates.current.set(shownPath.current, editor.saveViewState());
      editor.setModel(model);
      const state = viewStates.current.get(path);
      if (state) editor.restoreViewState(state);
      shownPath.current = path;
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
