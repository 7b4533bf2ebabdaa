import { describe, expect, it } from 'vitest';
import type { MonacoApi } from './monacoApi.js';
import { trackEditorActions } from './editorActions.js';

/** An editor with just what tracking uses: it can be disposed, and says so. */
function fakeEditor(name: string) {
  const listeners = new Set<() => void>();
  return {
    name,
    onDidDispose: (listener: () => void) => {
      listeners.add(listener);
      return { dispose: () => void listeners.delete(listener) };
    },
    dispose: () => [...listeners].forEach((listener) => listener()),
  };
}

/** Monaco's editor registry: editors announce themselves from inside their constructor. */
function fakeMonaco() {
  const created = new Set<(editor: unknown) => void>();
  const monaco = {
    editor: {
      getEditors: () => [],
      onDidCreateEditor: (listener: (editor: unknown) => void) => {
        created.add(listener);
        return { dispose: () => void created.delete(listener) };
      },
    },
  } as unknown as MonacoApi;
  return { monaco, announce: (editor: unknown) => created.forEach((listener) => listener(editor)) };
}

const microtasks = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('trackEditorActions', () => {
  it('adds the actions to an editor right after it is made, and not to one disposed before that (a throwaway editor)', async () => {
    const { monaco, announce } = fakeMonaco();
    const added: string[] = [];
    trackEditorActions(monaco, { accepts: () => true, addActions: (editor) => void added.push((editor as unknown as { name: string }).name) });

    const kept = fakeEditor('kept');
    announce(kept);
    const throwaway = fakeEditor('throwaway');
    announce(throwaway);
    // Made and disposed in one go, as the diff view's hover-factory reset does: its context keys are
    // gone by the time the actions would be added, and adding them threw into the page.
    throwaway.dispose();
    expect(added).toEqual([]);
    await microtasks();
    expect(added).toEqual(['kept']);
  });

  it('lets the actions go with the editor', async () => {
    const { monaco, announce } = fakeMonaco();
    let live = 0;
    trackEditorActions(monaco, {
      accepts: () => true,
      addActions: (_editor, into) => {
        live++;
        into.add({ dispose: () => void live-- });
      },
    });
    const editor = fakeEditor('tab');
    announce(editor);
    await microtasks();
    expect(live).toBe(1);
    editor.dispose();
    expect(live).toBe(0);
  });
});
