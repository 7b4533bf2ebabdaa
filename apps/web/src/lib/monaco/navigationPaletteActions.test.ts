import { describe, expect, it } from 'vitest';
import type { MonacoApi } from './monacoApi.js';
import { NAVIGATION_PALETTE_COMMANDS, registerNavigationPaletteActions } from './navigationPaletteActions.js';

interface Added {
  id: string;
  label: string;
  precondition?: string;
  run(editor: unknown): void;
  disposed: boolean;
}

function fakeEditor() {
  const added: Added[] = [];
  const calls: string[] = [];
  let onDispose: (() => void) | undefined;
  const editor = {
    addAction(descriptor: Omit<Added, 'disposed'>) {
      const entry = { ...descriptor, disposed: false };
      added.push(entry);
      return { dispose: () => void (entry.disposed = true) };
    },
    focus: () => calls.push('focus'),
    trigger: (_source: string, id: string) => calls.push(`trigger ${id}`),
    onDidDispose: (listener: () => void) => {
      onDispose = listener;
      return { dispose: () => undefined };
    },
  };
  return { editor, added, calls, dispose: () => onDispose?.() };
}

function fakeMonaco(editors: unknown[]) {
  return { editor: { getEditors: () => editors, onDidCreateEditor: () => ({ dispose: () => undefined }) } } as unknown as MonacoApi;
}

describe('navigation palette entries', () => {
  it('adds one entry per Monaco navigation command, under its provider precondition, that runs the command on the focused editor', () => {
    const one = fakeEditor();
    const actions = registerNavigationPaletteActions(fakeMonaco([one.editor]), (key) => `label:${key}`);
    expect(one.added.map((a) => [a.label, a.precondition])).toEqual([
      ['label:goToDeclaration', 'editorHasDeclarationProvider'],
      ['label:peekDeclaration', 'editorHasDeclarationProvider'],
      ['label:goToTypeDefinition', 'editorHasTypeDefinitionProvider'],
      ['label:peekTypeDefinition', 'editorHasTypeDefinitionProvider'],
      ['label:goToImplementations', 'editorHasImplementationProvider'],
      ['label:peekImplementations', 'editorHasImplementationProvider'],
    ]);
    one.added[0]!.run(one.editor);
    expect(one.calls).toEqual(['focus', `trigger ${NAVIGATION_PALETTE_COMMANDS[0].id}`]);
    expect(NAVIGATION_PALETTE_COMMANDS[0].id).toBe('editor.action.revealDeclaration');
    actions.dispose();
    expect(one.added.every((a) => a.disposed)).toBe(true);
  });

  it('relabels by adding the entries again, and drops an editor that went away', () => {
    const one = fakeEditor();
    let language = 'en';
    const actions = registerNavigationPaletteActions(fakeMonaco([one.editor]), (key) => `${language}:${key}`);
    language = 'pt';
    actions.relabel();
    expect(one.added.slice(0, 6).every((a) => a.disposed)).toBe(true);
    expect(one.added.slice(6).map((a) => a.label)[0]).toBe('pt:goToDeclaration');
    one.dispose();
    expect(one.added.every((a) => a.disposed)).toBe(true);
    actions.relabel();
    expect(one.added).toHaveLength(12);
    actions.dispose();
  });
});
