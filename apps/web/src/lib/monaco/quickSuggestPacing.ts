import type * as Monaco from 'monaco-editor';
import { DisposableStore, type Disposable } from '@kandev/kit';

/**
 * When quick suggestions ask the server, per model, paced by what the server's lists cost.
 *
 * Quick suggestions ask for a completion list at each keystroke of a word. A server that takes long
 * over such a list (tsserver listing the auto-import candidates of a workspace exporting 50,000
 * names needs seconds, and goes on with a request it started after it was cancelled) is still busy
 * with the list for `v` when the `.` typed right after arrives, so the member list the person waits
 * for queues behind one nobody looked at. Where a model's recent word lists were slow, quick
 * suggestions wait for a pause in typing instead; the lists then come when the person stops, as
 * they would have anyway, and a trigger character or Ctrl+Space never waits (Monaco's delay
 * applies to quick suggestions only). Where lists are fast, Monaco's own delay stays.
 */
export const QUICK_DELAY_MS = 10;
/** Longer than the gap between two keystrokes of someone typing steadily. */
export const PAUSE_DELAY_MS = 300;
/** A word list that took this long was not ready before the next keystroke. */
export const SLOW_LIST_MS = 250;
/** How many recent answers decide: one fast answer among slow ones does not flip it back. */
export const RECENT_LISTS = 3;

/** The quick-suggestions delay for a model given its recent word-list answer times (ms, newest last). */
export function quickSuggestionsDelay(recentListMs: readonly number[]): number {
  return recentListMs.some((ms) => ms >= SLOW_LIST_MS) ? PAUSE_DELAY_MS : QUICK_DELAY_MS;
}

type EditorApi = Pick<typeof Monaco.editor, 'onDidCreateEditor' | 'getEditors'>;
type CodeEditor = Pick<Monaco.editor.ICodeEditor, 'getModel' | 'updateOptions' | 'onDidChangeModel' | 'onDidDispose'>;
type TextModel = Pick<Monaco.editor.ITextModel, 'getLanguageId'>;

/**
 * The window's pacing: records how long the server took over word lists (completions not asked by
 * a trigger character) per model, and keeps the delay of every editor showing that model in step,
 * also when an editor swaps in another model (tabs share one editor).
 */
export class QuickSuggestPacing implements Disposable {
  private readonly recent = new WeakMap<TextModel, number[]>();
  /**
   * The same per Monaco language, for models that have no list of their own yet: what a server's
   * lists cost is mostly the workspace's (tsserver's auto-import candidates), so a file opened
   * next in a workspace whose lists are slow waits for a pause from its first word on.
   */
  private readonly recentByLanguage = new Map<string, number[]>();
  private readonly store = new DisposableStore();
  private readonly applied = new WeakMap<CodeEditor, number>();

  constructor(private readonly editors: EditorApi) {
    const follow = (editor: CodeEditor) => {
      const changed = editor.onDidChangeModel(() => this.apply(editor));
      editor.onDidDispose(() => changed.dispose());
      this.apply(editor);
    };
    for (const editor of editors.getEditors()) follow(editor);
    this.store.add(editors.onDidCreateEditor(follow));
  }

  /**
   * The server answered a word list for `model` after `ms`. A cancelled one was answered at once
   * with nothing while the server goes on with it: its time is only a lower bound, which tells
   * something only when it already is slow (typing on cancels every list a slow server makes, so
   * without this a slow server would never be found slow).
   */
  recordList(model: TextModel, ms: number, cancelled = false): void {
    if (cancelled && ms < SLOW_LIST_MS) return;
    const language = model.getLanguageId();
    this.recent.set(model, [...(this.recent.get(model) ?? []), ms].slice(-RECENT_LISTS));
    this.recentByLanguage.set(language, [...(this.recentByLanguage.get(language) ?? []), ms].slice(-RECENT_LISTS));
    for (const editor of this.editors.getEditors()) {
      const shown = editor.getModel();
      if (shown === model || shown?.getLanguageId() === language) this.apply(editor);
    }
  }

  delayOf(model: TextModel | null): number {
    if (!model) return QUICK_DELAY_MS;
    return quickSuggestionsDelay(this.recent.get(model) ?? this.recentByLanguage.get(model.getLanguageId()) ?? []);
  }

  private apply(editor: CodeEditor): void {
    const delay = this.delayOf(editor.getModel());
    // updateOptions re-renders nothing when unchanged, but keep the calls to real changes.
    if (this.applied.get(editor) === delay) return;
    this.applied.set(editor, delay);
    editor.updateOptions({ quickSuggestionsDelay: delay });
  }

  dispose(): void {
    this.store.dispose();
  }
}
