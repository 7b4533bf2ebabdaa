import type { Locale } from '@kandev/protocol';
import { setLocale } from '../i18n/i18n.js';
import type { MonacoApi } from '../lib/lsp/providers/host.js';
import { sessionModelUriParts } from '../lib/lsp/uris.js';

declare global {
  interface Window {
    __kandev?: {
      monaco?: MonacoApi;
      getModelMarkers?(sessionId: string, path: string): unknown[];
      /** Switches the UI language as Settings does, without leaving the page shown (Settings is a page of its own). */
      setLocale?(locale: Locale): Promise<void>;
      /** Set by a test before the app loads: how long a session stays off screen before its servers detach. */
      backgroundDetachMs?: number;
      /** Set by a test before the app loads: how long a server's plain message stays on screen. */
      messageToastMs?: number;
      /** How many times each counted view rendered (see countRenderForTests). */
      renders?: Record<string, number>;
    };
  }
}

/**
 * Helpers for browser tests: Monaco itself, the markers of one session model and a locale switch. Called only when
 * `import.meta.env.KANDEV_TEST_HOOKS` is true, which only the test build (apps/web/dist-test) sets;
 * the production bundle drops this module (an integration test checks it has no `__kandev`).
 */
export function exposeTestHooks(monaco: MonacoApi): void {
  window.__kandev = {
    ...window.__kandev,
    monaco,
    getModelMarkers: (sessionId, path) => monaco.editor.getModelMarkers({ resource: monaco.Uri.from(sessionModelUriParts(sessionId, path)) }),
    setLocale,
  };
}

/** A test's background delay (see SessionScope.show), if it set one before the app loaded. */
export function testBackgroundDetachMs(): number | undefined {
  const value = window.__kandev?.backgroundDetachMs;
  return typeof value === 'number' && value >= 0 ? value : undefined;
}

/** A test's toast lifetime (see ServerMessages), if it set one before the app loaded. */
export function testMessageToastMs(): number | undefined {
  const value = window.__kandev?.messageToastMs;
  return typeof value === 'number' && value >= 0 ? value : undefined;
}

/**
 * Counts a render of the view `name` for a test that checks what re-renders it (call it only under
 * `import.meta.env.KANDEV_TEST_HOOKS`, so the production bundle drops it).
 */
export function countRenderForTests(name: string): void {
  const hooks = (window.__kandev ??= {});
  const renders = (hooks.renders ??= {});
  renders[name] = (renders[name] ?? 0) + 1;
}
