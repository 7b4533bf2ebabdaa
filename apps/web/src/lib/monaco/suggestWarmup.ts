import type { Disposable } from '@kandev/kit';
import type * as Monaco from 'monaco-editor';

type MonacoForWarmup = {
  editor: Pick<typeof Monaco.editor, 'create' | 'createModel' | 'onDidCreateEditor'>;
  languages: Pick<typeof Monaco.languages, 'register' | 'registerCompletionItemProvider' | 'CompletionItemKind'>;
  Uri: Pick<typeof Monaco.Uri, 'parse'>;
};

/** A language of its own: no language server, no descriptor and no provider of the app serves it. */
export const WARMUP_LANGUAGE = 'kandev-suggest-warmup';

/** How long the off-screen list may take to draw before the warm-up gives up and cleans up. */
const WARMUP_MAX_MS = 2_000;

/**
 * The first suggestion list a page shows costs 15-25 ms more than the ones after it: trigger key
 * to drawn list, with a fake server answering at once, took 46-54 ms the first time in a page and
 * 23-36 ms later, and a second editor's first list (another session, a new editor) was as quick as
 * a later one. So the cost is the page's, not the editor's: Monaco's suggest code running cold and
 * its widget's styles and layout being new. The person's first `.` after opening a file paid it.
 *
 * Once the page's first editor exists and the page is idle, this shows one list where nobody sees
 * it (an editor off screen and inert, in a language no server hears, its items from a provider of
 * its own) and disposes all of it, once per page. Returns what stops it, if it has not run yet.
 */
export function warmSuggestWhenIdle(
  monaco: MonacoForWarmup,
  whenIdle: (run: () => void) => void = idleCallback,
  warm: (monaco: MonacoForWarmup) => Promise<void> = showOneListOffScreen,
): Disposable {
  let state: 'waiting' | 'scheduled' | 'done' = 'waiting';
  const created = monaco.editor.onDidCreateEditor(() => {
    if (state !== 'waiting') return;
    state = 'scheduled';
    created.dispose();
    whenIdle(() => {
      if (state !== 'scheduled') return;
      state = 'done';
      void warm(monaco);
    });
  });
  return {
    dispose() {
      created.dispose();
      state = 'done';
    },
  };
}

/** requestIdleCallback where the page has it (a bounded wait: a busy page still warms up within 5 s). */
function idleCallback(run: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: 5_000 });
  else setTimeout(run, 1_000);
}

async function showOneListOffScreen(monaco: MonacoForWarmup): Promise<void> {
  if (typeof document === 'undefined') return;
  const host = document.createElement('div');
  // Off screen but laid out and drawn like a real editor (display:none or visibility:hidden would
  // skip the work this is for); inert and hidden from assistive technology.
  host.setAttribute('aria-hidden', 'true');
  host.inert = true;
  host.dataset.testid = 'suggest-warmup';
  host.style.cssText = 'position:fixed;left:-10000px;top:0;width:480px;height:240px;pointer-events:none;';
  document.body.append(host);
  const disposables: Disposable[] = [];
  try {
    monaco.languages.register({ id: WARMUP_LANGUAGE });
    const kinds = monaco.languages.CompletionItemKind;
    disposables.push(
      monaco.languages.registerCompletionItemProvider(WARMUP_LANGUAGE, {
        triggerCharacters: ['.'],
        provideCompletionItems: (_model, position) => ({
          suggestions: [kinds.Method, kinds.Property, kinds.Function, kinds.Variable, kinds.Class].map((kind, i) => ({
            label: `warm${i}`,
            kind,
            detail: 'number',
            insertText: `warm${i}`,
            range: { startLineNumber: position.lineNumber, startColumn: position.column, endLineNumber: position.lineNumber, endColumn: position.column },
          })),
        }),
      }),
    );
    const model = monaco.editor.createModel('x.', WARMUP_LANGUAGE, monaco.Uri.parse(`inmemory://kandev-suggest-warmup/${Date.now()}`));
    disposables.push(model);
    // The options the app's editors use where they shape the suggest widget (CodeEditor.tsx).
    const editor = monaco.editor.create(host, {
      model,
      minimap: { enabled: false },
      fixedOverflowWidgets: true,
      suggest: { showInlineDetails: false },
      inlineSuggest: { enabled: false },
      lightbulb: { enabled: 'off' as Monaco.editor.ShowLightbulbIconMode },
      quickSuggestions: false,
      wordBasedSuggestions: 'off',
      accessibilitySupport: 'off',
    });
    disposables.unshift(editor);
    editor.setPosition({ lineNumber: 1, column: 3 });
    editor.trigger('kandev.warmup', 'editor.action.triggerSuggest', {});
    await listDrawn(host);
  } catch {
    // A warm-up that fails costs the first list its cold start, as before; nothing else.
  } finally {
    for (const d of disposables) d.dispose();
    host.remove();
  }
}

/** Resolves once a suggestion row is in the warm-up's editor and a frame has drawn it, or after WARMUP_MAX_MS. */
function listDrawn(host: HTMLElement): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      observer.disconnect();
      clearTimeout(timer);
      requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
    };
    const observer = new MutationObserver(() => {
      if (host.querySelector('.suggest-widget .monaco-list-row')) done();
    });
    observer.observe(host, { subtree: true, childList: true });
    const timer = setTimeout(done, WARMUP_MAX_MS);
  });
}
