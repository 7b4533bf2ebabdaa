import { SESSION_MODEL_SCHEME } from '../lsp/uris.js';

/** What a followed link may do: open a web page in a new tab, open a session's file, hand a `file:` URI to the editor opener, or nothing. */
export type LinkOpening = 'new_tab' | 'session_file' | 'editor' | 'refused';

/**
 * The window's policy for links in the editor (server document links, links in hovers, URLs Monaco
 * finds in text): http(s) pages open in a new browser tab, without access to this page; a session
 * model URI (what a server's link into the workspace became) opens that file's tab; a `file:` URI
 * goes on to the editor opener, which opens a workspace file of the source editor's session and
 * nothing else; every other scheme (`javascript:`, `data:`, `command:`, ...) is refused, where
 * Monaco would otherwise navigate this page to it or run an editor command.
 */
export function linkOpening(uri: { scheme: string }): LinkOpening {
  const scheme = uri.scheme.toLowerCase();
  if (scheme === 'http' || scheme === 'https') return 'new_tab';
  if (scheme === SESSION_MODEL_SCHEME) return 'session_file';
  if (scheme === 'file') return 'editor';
  return 'refused';
}

/** A `L12` / `L12,3` fragment as the position a link reveals. */
export function fragmentPosition(fragment: string): { lineNumber: number; column: number } | undefined {
  const match = /^L(\d+)(?:,(\d+))?$/.exec(fragment);
  if (!match) return undefined;
  return { lineNumber: Math.max(1, Number(match[1])), column: Math.max(1, Number(match[2] ?? 1)) };
}

export interface LinkOpenerDeps {
  openWindow(url: string): void;
  /** Opens a session model URI's file as a tab; false when it names no file of a session. */
  openSessionFile(uri: { scheme: string; authority: string; path: string }, position: { lineNumber: number; column: number } | undefined): boolean;
}

type LinkResource = { scheme: string; authority: string; path: string; fragment: string; toString(skipEncoding?: boolean): string };

/** Monaco's link opener for that policy: true means handled (opened or refused), false hands on to the editor opener. */
export function createLinkOpener(deps: LinkOpenerDeps): { open(resource: LinkResource): boolean } {
  return {
    open(resource) {
      switch (linkOpening(resource)) {
        case 'new_tab':
          // Unencoded: Monaco's URI would otherwise re-encode a query the page expects as written.
          deps.openWindow(resource.toString(true));
          return true;
        case 'session_file':
          // Opened here, not by Monaco's editor opener, which needs a focused editor to start from.
          deps.openSessionFile(resource, fragmentPosition(resource.fragment));
          return true;
        case 'editor':
          return false;
        case 'refused':
          return true;
      }
    },
  };
}
