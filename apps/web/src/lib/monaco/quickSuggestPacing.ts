import type * as Monaco from 'monaco-editor';
import { DisposableStore, toDisposable, type Disposable } from '@kandev/kit';

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

/**
 * The quick-suggestions delay for a model given its recent word-list answer times (ms, newest
 * last). Nothing measured yet waits for a pause too: a word list's cost is unknown until one was
 * answered, and the first one of a session is the dearest (tsserver builds its completion caches,
 * auto-imports included, for it). Asked at the first letter of a steadily typed line, it sat in
 * front of the `.` typed after it: with a 10,000-line file just opened in a workspace exporting
 * 51,000 names, the member list waited behind it past the broker's 30 s request deadline on a
 * loaded machine, and the person saw no list at all. Waiting costs a fast server only its first
 * list's pause; its answer brings Monaco's own delay back.
 */
export function quickSuggestionsDelay(recentListMs: readonly number[]): number {
  return recentListMs.length === 0 || recentListMs.some((ms) => ms >= SLOW_LIST_MS) ? PAUSE_DELAY_MS : QUICK_DELAY_MS;
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
  /** Monaco languages whose word lists a language server answers (a count: several connections may). */
  private readonly servedLanguages = new Map<string, number>();
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

  /**
   * A language server answers the word lists of these Monaco languages from now until disposed.
   * Only their models wait while nothing is known: elsewhere the list is Monaco's own word list of
   * the document, which costs nothing worth waiting for.
   */
  serveLists(languages: readonly string[]): Disposable {
    for (const language of languages) this.servedLanguages.set(language, (this.servedLanguages.get(language) ?? 0) + 1);
    this.applyAll();
    return toDisposable(() => {
      for (const language of languages) {
        const left = (this.servedLanguages.get(language) ?? 1) - 1;
        if (left > 0) this.servedLanguages.set(language, left);
        else this.servedLanguages.delete(language);
      }
      this.applyAll();
    });
  }

  delayOf(model: TextModel | null): number {
    if (!model) return QUICK_DELAY_MS; // no model, nothing to suggest in
    const recent = this.recent.get(model) ?? this.recentByLanguage.get(model.getLanguageId());
    if (!recent && !this.servedLanguages.has(model.getLanguageId())) return QUICK_DELAY_MS;
    return quickSuggestionsDelay(recent ?? []);
  }

  private applyAll(): void {
    if (this.store.isDisposed) return;
    for (const editor of this.editors.getEditors()) this.apply(editor);
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
