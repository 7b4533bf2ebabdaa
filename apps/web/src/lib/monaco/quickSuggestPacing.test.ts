import { Emitter } from '@kandev/kit';
import { describe, expect, it } from 'vitest';
import { PAUSE_DELAY_MS, QUICK_DELAY_MS, QuickSuggestPacing, quickSuggestionsDelay, SLOW_LIST_MS } from './quickSuggestPacing.js';

/** An editor as the pacing sees it: its model, the options it was given, model swaps. */
function fakeEditor(model: object | null) {
  const modelChanged = new Emitter<void>();
  const editor = {
    model,
    options: [] as Array<{ quickSuggestionsDelay?: number }>,
    getModel: () => editor.model,
    updateOptions: (o: { quickSuggestionsDelay?: number }) => void editor.options.push(o),
    onDidChangeModel: modelChanged.event,
    onDidDispose: () => ({ dispose: () => undefined }),
    show(next: object | null) {
      editor.model = next;
      modelChanged.fire();
    },
    delay: () => editor.options.at(-1)?.quickSuggestionsDelay,
  };
  return editor;
}

function editorApi() {
  const created = new Emitter<ReturnType<typeof fakeEditor>>();
  const editors: Array<ReturnType<typeof fakeEditor>> = [];
  return {
    editors,
    add(editor: ReturnType<typeof fakeEditor>) {
      editors.push(editor);
      created.fire(editor);
    },
    api: { getEditors: () => editors, onDidCreateEditor: created.event } as never,
  };
}

describe('quick suggestions paced by what word lists cost the server', () => {
  it('waits for a pause once one of the last three word lists took as long as a keystroke gap; fast lists keep Monaco’s delay', () => {
    expect(quickSuggestionsDelay([20])).toBe(QUICK_DELAY_MS);
    expect(quickSuggestionsDelay([40, 80, SLOW_LIST_MS - 1])).toBe(QUICK_DELAY_MS);
    expect(quickSuggestionsDelay([40, SLOW_LIST_MS])).toBe(PAUSE_DELAY_MS);
    expect(PAUSE_DELAY_MS).toBeGreaterThan(QUICK_DELAY_MS);
  });

  it('waits for a pause while nothing is known of the word lists (the first of a session is the dearest); the first fast answer brings the quick delay', () => {
    expect(quickSuggestionsDelay([])).toBe(PAUSE_DELAY_MS);
    const windowEditors = editorApi();
    const model = { getLanguageId: () => 'typescript' };
    const editor = fakeEditor(model);
    windowEditors.add(editor);
    const plain = fakeEditor({ getLanguageId: () => 'markdown' });
    windowEditors.add(plain);
    const pacing = new QuickSuggestPacing(windowEditors.api);
    // No server answers word lists yet: Monaco's own word list of the document, which costs nothing.
    expect([editor.delay(), plain.delay()]).toEqual([QUICK_DELAY_MS, QUICK_DELAY_MS]);
    const served = pacing.serveLists(['typescript', 'javascript']);
    expect([editor.delay(), plain.delay()]).toEqual([PAUSE_DELAY_MS, QUICK_DELAY_MS]);
    pacing.recordList(model as never, 20);
    expect(editor.delay()).toBe(QUICK_DELAY_MS);
    served.dispose();
    pacing.dispose();
  });

  it('a language no server serves any more is back to Monaco’s delay while nothing is measured', () => {
    const windowEditors = editorApi();
    const editor = fakeEditor({ getLanguageId: () => 'python' });
    windowEditors.add(editor);
    const pacing = new QuickSuggestPacing(windowEditors.api);
    const first = pacing.serveLists(['python']);
    const second = pacing.serveLists(['python']);
    first.dispose();
    expect(editor.delay()).toBe(PAUSE_DELAY_MS);
    second.dispose();
    expect(editor.delay()).toBe(QUICK_DELAY_MS);
    pacing.dispose();
  });

  it('sets the delay of the editors showing the model, follows model swaps, and three fast lists bring the quick delay back', () => {
    const slowModel = { getLanguageId: () => 'typescript' };
    const fastModel = { getLanguageId: () => 'python' };
    const windowEditors = editorApi();
    const existing = fakeEditor(slowModel);
    windowEditors.editors.push(existing);
    const pacing = new QuickSuggestPacing(windowEditors.api);
    pacing.serveLists(['typescript', 'python']);
    const other = fakeEditor(fastModel);
    windowEditors.add(other);
    expect([existing.delay(), other.delay()]).toEqual([PAUSE_DELAY_MS, PAUSE_DELAY_MS]);
    pacing.recordList(fastModel as never, 20);
    expect([existing.delay(), other.delay()]).toEqual([PAUSE_DELAY_MS, QUICK_DELAY_MS]);

    pacing.recordList(slowModel as never, 900);
    expect(existing.delay()).toBe(PAUSE_DELAY_MS);
    expect(other.delay()).toBe(QUICK_DELAY_MS);

    // A tab switch swaps models in one editor: the delay is the shown model's.
    other.show(slowModel);
    expect(other.delay()).toBe(PAUSE_DELAY_MS);
    other.show(fastModel);
    expect(other.delay()).toBe(QUICK_DELAY_MS);

    pacing.recordList(slowModel as never, 30);
    pacing.recordList(slowModel as never, 30);
    expect(existing.delay()).toBe(PAUSE_DELAY_MS);
    // A list cancelled early tells nothing; one cancelled after a long wait proves the server slow.
    pacing.recordList(fastModel as never, 40, true);
    expect(other.delay()).toBe(QUICK_DELAY_MS);
    pacing.recordList(fastModel as never, SLOW_LIST_MS, true);
    expect(other.delay()).toBe(PAUSE_DELAY_MS);
    pacing.recordList(slowModel as never, 30);
    expect(existing.delay()).toBe(QUICK_DELAY_MS);
    pacing.dispose();
  });

  it("a model with no list of its own takes its language's recent lists (the workspace's cost), until it has its own", () => {
    const windowEditors = editorApi();
    const pacing = new QuickSuggestPacing(windowEditors.api);
    pacing.serveLists(['typescript', 'go']);
    const big = { getLanguageId: () => 'typescript' };
    const next = { getLanguageId: () => 'typescript' };
    const other = { getLanguageId: () => 'go' };
    const editor = fakeEditor(next);
    const goEditor = fakeEditor(other);
    windowEditors.add(editor);
    windowEditors.add(goEditor);
    pacing.recordList(other as never, 20);
    pacing.recordList(big as never, 2_000, true);
    expect(editor.delay()).toBe(PAUSE_DELAY_MS);
    expect(goEditor.delay()).toBe(QUICK_DELAY_MS);
    for (let i = 0; i < 3; i++) pacing.recordList(next as never, 20);
    expect(editor.delay()).toBe(QUICK_DELAY_MS);
    expect(pacing.delayOf(big as never)).toBe(PAUSE_DELAY_MS);
    pacing.dispose();
  });
});
