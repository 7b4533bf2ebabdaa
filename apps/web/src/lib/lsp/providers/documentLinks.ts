import type * as Monaco from 'monaco-editor';
import type { DocumentLink } from 'vscode-languageserver-protocol';
import { isRecord } from '@kandev/protocol';
import type { Disposable } from '@kandev/kit';
import { markKandevProvider } from '../builtins.js';
import type { FeatureRegistration } from '../capabilities.js';
import type { MonacoUri, ProviderHost } from './host.js';
import { isLspRange, toMonacoRange } from './ranges.js';

/** Where a link may lead: a web page (opened in a new tab after a click) or a file of the workspace (a tab). */
export type LinkTarget = { kind: 'external'; url: string } | { kind: 'workspace'; url: string };

/** A `#L12` / `#L12,5` fragment: the line (and column) a file link points at, which Monaco's opener reveals. */
const LINE_FRAGMENT = /^L\d+(,\d+)?$/;

/**
 * Where a server's link target may lead, or undefined when it may not lead anywhere: only http(s)
 * pages and files inside the workspace (as the session's model, so the link opens its tab). A
 * `file:` URI outside the workspace, `javascript:`, `data:`, `command:` and every other scheme
 * are dropped here, so Monaco never gets to open them.
 */
export function linkTarget(target: string, toWorkspaceModelUri: (fileUri: string) => MonacoUri | undefined): LinkTarget | undefined {
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(target)?.[1]?.toLowerCase();
  if (scheme === 'http' || scheme === 'https') {
    try {
      return { kind: 'external', url: new URL(target).href };
    } catch {
      return undefined;
    }
  }
  if (scheme !== 'file') return undefined;
  const hash = target.indexOf('#');
  const fragment = hash >= 0 ? target.slice(hash + 1) : '';
  const base = (hash >= 0 ? target.slice(0, hash) : target).replace(/\?.*$/, '');
  const model = toWorkspaceModelUri(base);
  if (!model) return undefined;
  return { kind: 'workspace', url: model.toString() + (LINE_FRAGMENT.test(fragment) ? `#${fragment}` : '') };
}

/** One LSP link as Monaco's; a link without a target stays only when the server resolves targets. */
export function toMonacoLink(
  link: DocumentLink,
  resolvable: boolean,
  toWorkspaceModelUri: (fileUri: string) => MonacoUri | undefined,
): Monaco.languages.ILink | undefined {
  if (!isRecord(link) || !isLspRange(link.range)) return undefined;
  const out: Monaco.languages.ILink = { range: toMonacoRange(link.range) };
  if (typeof link.tooltip === 'string') out.tooltip = link.tooltip;
  if (typeof link.target !== 'string') return resolvable ? out : undefined;
  const target = linkTarget(link.target, toWorkspaceModelUri);
  if (!target) return undefined;
  out.url = target.url;
  return out;
}

/**
 * Document links (clangd's #include, gopls's import paths, url() in CSS, href in HTML), with
 * documentLink/resolve. Targets are filtered by linkTarget; what a click does is the window's link
 * opener (lib/workspace/linkOpener.ts).
 */
export function registerDocumentLinkProvider(host: ProviderHost, registration: FeatureRegistration<'documentLink'>): Disposable {
  const { context } = host;
  const resolvable = registration.options.resolveProvider === true;
  const originals = new WeakMap<Monaco.languages.ILink, DocumentLink>();
  const toWorkspaceModelUri = (fileUri: string) => {
    const model = host.toModelUri(fileUri);
    return model.scheme === 'file' ? undefined : model;
  };
  const provider: Monaco.languages.LinkProvider = {
    async provideLinks(model, token) {
      const target = host.target(model, registration);
      if (!target) return null;
      context.flush(target.path);
      let result: DocumentLink[] | null;
      try {
        result = await context.request<DocumentLink[] | null>('textDocument/documentLink', { textDocument: { uri: target.uri } }, token);
      } catch {
        return null;
      }
      const links: Monaco.languages.ILink[] = [];
      for (const link of Array.isArray(result) ? result : []) {
        const mapped = toMonacoLink(link, resolvable, toWorkspaceModelUri);
        if (!mapped) continue;
        originals.set(mapped, link);
        links.push(mapped);
      }
      return { links };
    },
  };
  if (resolvable) {
    provider.resolveLink = async (link, token) => {
      const original = originals.get(link);
      if (!original || link.url) return link;
      try {
        const resolved = await context.request<DocumentLink | null>('documentLink/resolve', original, token);
        return (resolved && toMonacoLink(resolved, false, toWorkspaceModelUri)) ?? null;
      } catch {
        return null;
      }
    };
  }
  return host.languages.registerLinkProvider(host.selector, markKandevProvider(provider));
}
