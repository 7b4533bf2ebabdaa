import { SESSION_MODEL_SCHEME } from '../lsp/uris.js';

/** What a followed link may do: open a web page in a new tab, open a workspace file, or nothing. */
export type LinkOpening = 'new_tab' | 'editor' | 'refused';

/**
 * The window's policy for links in the editor (server document links, links in hovers, URLs Monaco
 * finds in text): http(s) pages open in a new browser tab, without access to this page; session
 * files and `file:` URIs go on to the editor opener, which opens a workspace file's tab and
 * nothing else; every other scheme (`javascript:`, `data:`, `command:`, ...) is refused, where
 * Monaco would otherwise navigate this page to it or run an editor command.
 */
export function linkOpening(uri: { scheme: string }): LinkOpening {
  const scheme = uri.scheme.toLowerCase();
  if (scheme === 'http' || scheme === 'https') return 'new_tab';
  if (scheme === 'file' || scheme === SESSION_MODEL_SCHEME) return 'editor';
  return 'refused';
}

/** Monaco's link opener for that policy: true means handled (opened or refused), false hands on to the editor opener. */
export function createLinkOpener(openWindow: (url: string) => void): { open(resource: { scheme: string; toString(skipEncoding?: boolean): string }): boolean } {
  return {
    open(resource) {
      const opening = linkOpening(resource);
      // Unencoded: Monaco's URI would otherwise re-encode a query the page expects as written.
      if (opening === 'new_tab') openWindow(resource.toString(true));
      return opening !== 'editor';
    },
  };
}
