import { installBuiltinGuards, type BuiltinSuppression, type GuardableEditor, type GuardableLanguages } from '../lsp/builtins.js';
import type { Disposable } from '@kandev/kit';
import type { MonacoApi } from '../monaco/monacoApi.js';
import { defineEditorThemes } from './monacoThemes.js';
import { createLinkOpener } from './linkOpener.js';
import { positionOf, resolveOpenTarget, type OpenTarget } from './navigation.js';
import type { WorkspaceIdentityStore } from './workspaceIdentity.js';

export interface MonacoSetupDeps {
  suppression: BuiltinSuppression;
  identities: WorkspaceIdentityStore;
  /** Opens a session file (tab, tree, reveal). */
  navigate(target: OpenTarget, position: { lineNumber: number; column: number } | undefined): void;
  /** A built-in TypeScript provider is about to answer (its worker is needed). */
  onBuiltinUse?(): void;
}

/**
 * Window-wide Monaco wiring, done once, before the first model exists: built-in guards (so lazy
 * TypeScript providers are wrapped as they register, S14) and the editor opener that turns
 * navigation into tabs of the right session (S36, S38), and the link policy (linkOpener.ts).
 */
export function setupMonaco(monaco: MonacoApi, deps: MonacoSetupDeps): Disposable[] {
  const guards = installBuiltinGuards(
    monaco.languages as unknown as GuardableLanguages,
    monaco.editor as unknown as GuardableEditor,
    deps.suppression,
    deps.onBuiltinUse,
  );
  const opener = monaco.editor.registerEditorOpener({
    openCodeEditor(source, resource, selectionOrPosition) {
      const target = resolveOpenTarget(resource, source.getModel()?.uri, deps.identities);
      if (!target) return false;
      deps.navigate(target, positionOf(selectionOrPosition));
      return true;
    },
  });
  // Links are followed only after a click (Ctrl/Cmd+click, or the hover's link), as Monaco does.
  const links = monaco.editor.registerLinkOpener(
    createLinkOpener({
      openWindow: (url) => void window.open(url, '_blank', 'noopener,noreferrer'),
      openSessionFile(uri, position) {
        const target = resolveOpenTarget({ ...uri, toString: () => '' }, undefined, deps.identities);
        if (target) deps.navigate(target, position);
        return target !== undefined;
      },
    }),
  );
  defineEditorThemes(monaco);
  // Semantic tokens are shown only when the theme allows them: ask for them explicitly.
  monaco.editor.setTheme('vs');
  return [guards, opener, links];
}
