import type * as Monaco from 'monaco-editor';
import { useEffect, useLayoutEffect, useRef } from 'react';
import type { MonacoApi } from '../../lib/monaco/monacoApi.js';
import { monacoLanguageForPath } from '../../lib/monaco/languages.js';
import { DIFF_TEXT_SCHEME } from '../../lib/lsp/uris.js';
import { caretFollowsReducedMotion } from '../../lib/monaco/reducedMotion.js';
import { keepDiffSideLabels, type DiffSideLabels } from './diffSideLabels.js';

let nextDiff = 1;

interface DiffEditorProps {
  monaco: MonacoApi;
  /** The file the texts are of (for its language). */
  path: string;
  /** The left-hand text (HEAD or disk), read-only. */
  original: string;
  /** The right-hand model: the session's own model of the file (edits are the person's), or a read-only stand-in. */
  modified: Monaco.editor.ITextModel;
  readOnly?: boolean;
  /** What a screen reader names each side's text box (localized: a new locale renames them). */
  sideLabels: DiffSideLabels;
  testId: string;
}

/**
 * Each standalone editor Monaco creates sets one page-wide hover factory with the services it was
 * made with; a diff editor's inner editors set it to the diff editor's own services, which are
 * disposed with it. From then on every editor's first hover or suggest list throws ("has been
 * disposed") and the page goes blank. A throwaway editor on Monaco's own services sets it back.
 */
function restoreSharedHoverFactory(monaco: MonacoApi): void {
  monaco.editor.create(document.createElement('div')).dispose();
}

/** Monaco's diff editor over a read-only text and a live model; side by side when there is room, inline when not. */
export function DiffEditor({ monaco, path, original, modified, readOnly = false, sideLabels, testId }: DiffEditorProps) {
  const container = useRef<HTMLDivElement>(null);
  const namedSides = useRef<{ apply(): void } | null>(null);
  const originalModel = useRef<Monaco.editor.ITextModel | null>(null);
  const originalText = useRef(original);
  originalText.current = original;
  const labels = useRef(sideLabels);
  labels.current = sideLabels;

  useEffect(() => {
    if (!container.current) return;
    const left = monaco.editor.createModel(
      originalText.current,
      monacoLanguageForPath(path),
      monaco.Uri.from({ scheme: DIFF_TEXT_SCHEME, authority: String(nextDiff++), path: `/${path}` }),
    );
    const editor = monaco.editor.createDiffEditor(container.current, {
      automaticLayout: true,
      originalEditable: false,
      readOnly,
      minimap: { enabled: false },
      scrollBeyondLastLine: false,
      useInlineViewWhenSpaceIsLimited: true,
      renderSideBySideInlineBreakpoint: 720,
      ignoreTrimWhitespace: false,
      fixedOverflowWidgets: true,
      // The modified side is the file's own model: the server's linked editing applies there as in the editor.
      linkedEditing: true,
    });
    editor.setModel({ original: left, modified });
    restoreSharedHoverFactory(monaco);
    const sides = keepDiffSideLabels(monaco, editor, () => labels.current);
    const caret = caretFollowsReducedMotion(editor);
    namedSides.current = sides;
    originalModel.current = left;
    const host = container.current;
    return () => {
      namedSides.current = null;
      sides.dispose();
      caret.dispose();
      originalModel.current = null;
      // Disposed with the focus inside, Monaco's diff editor reacts to losing it halfway through its
      // own disposal and throws (its services already gone), which can take the page down with it.
      const focused = document.activeElement;
      if (focused instanceof HTMLElement && host.contains(focused)) focused.blur();
      // The models are let go of first: the modified one is the session's and may be disposed
      // before or after this view (a closed tab, a deleted file's stand-in), and Monaco throws when
      // a diff editor still holds a disposed model. A throw here would take the whole page down.
      try {
        editor.setModel(null);
        editor.dispose();
      } catch (err) {
        console.warn('diff editor disposal', err);
      }
      left.dispose();
    };
  }, [monaco, path, modified, readOnly]);

  // A locale switch (or another path) renames both sides of the diff already shown, in the same
  // commit as the text around it.
  useLayoutEffect(() => namedSides.current?.apply(), [sideLabels.original, sideLabels.modified]);

  useEffect(() => {
    const left = originalModel.current;
    if (left && left.getValue() !== original) left.setValue(original);
  }, [original]);

  return <div ref={container} className="diff-editor" data-testid={testId} data-path={path} />;
}
