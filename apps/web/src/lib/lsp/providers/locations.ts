import type * as Monaco from 'monaco-editor';
import type { Location, LocationLink } from 'vscode-languageserver-protocol';
import { markKandevProvider } from '../builtins.js';
import type { FeatureRegistration } from '../capabilities.js';
import type { Disposable } from '@kandev/kit';
import type { MonacoUri, ProviderHost } from './host.js';
import { isLspRange, toLspPosition, toMonacoRange } from './ranges.js';

export type LocationResult = Location | Location[] | LocationLink[] | null | undefined;

function isLocationLink(value: Location | LocationLink): value is LocationLink {
  return typeof (value as LocationLink).targetUri === 'string';
}

/** Every server URI a result points at (to preload their models before Monaco previews them). */
export function locationTargets(result: LocationResult): string[] {
  if (!result) return [];
  const list = Array.isArray(result) ? result : [result];
  return [...new Set(list.map((l) => (isLocationLink(l) ? l.targetUri : l.uri)).filter((u): u is string => typeof u === 'string'))];
}

/**
 * Location or LocationLink results -> Monaco locations. Server `file://` URIs map back to the
 * session's model URIs through the workspace URI, so navigating opens (or focuses) that
 * session's tab; a URI outside the workspace stays a file URI the opener reports unhandled.
 */
export function toMonacoLocations(result: LocationResult, toModelUri: (fileUri: string) => MonacoUri): Monaco.languages.LocationLink[] {
  if (!result) return [];
  const list = Array.isArray(result) ? result : [result];
  const out: Monaco.languages.LocationLink[] = [];
  for (const entry of list) {
    if (isLocationLink(entry)) {
      if (!isLspRange(entry.targetRange)) continue;
      const link: Monaco.languages.LocationLink = { uri: toModelUri(entry.targetUri), range: toMonacoRange(entry.targetRange) };
      if (isLspRange(entry.targetSelectionRange)) link.targetSelectionRange = toMonacoRange(entry.targetSelectionRange);
      if (isLspRange(entry.originSelectionRange)) link.originSelectionRange = toMonacoRange(entry.originSelectionRange);
      out.push(link);
    } else if (typeof entry.uri === 'string' && isLspRange(entry.range)) {
      out.push({ uri: toModelUri(entry.uri), range: toMonacoRange(entry.range) });
    }
  }
  return out;
}

/** A location request at a position, its targets preloaded, as Monaco links (null when it failed). */
export async function requestLocations(
  host: ProviderHost,
  method: string,
  params: Record<string, unknown>,
  token: Monaco.CancellationToken,
): Promise<Monaco.languages.LocationLink[] | null> {
  let result: LocationResult;
  try {
    result = await host.context.request<LocationResult>(method, params, token);
  } catch {
    return null;
  }
  await host.preload(locationTargets(result));
  return toMonacoLocations(result, (uri) => host.toModelUri(uri));
}

export function registerDefinitionProvider(host: ProviderHost, registration: FeatureRegistration<'definition'>): Disposable {
  const provider: Monaco.languages.DefinitionProvider = {
    async provideDefinition(model, position, token) {
      const target = host.target(model, registration);
      if (!target) return null;
      host.context.flush(target.path);
      return requestLocations(host, 'textDocument/definition', { textDocument: { uri: target.uri }, position: toLspPosition(position) }, token);
    },
  };
  return host.languages.registerDefinitionProvider(host.selector, markKandevProvider(provider));
}

export function registerReferenceProvider(host: ProviderHost, registration: FeatureRegistration<'references'>): Disposable {
  const provider: Monaco.languages.ReferenceProvider = {
    async provideReferences(model, position, context, token) {
      const target = host.target(model, registration);
      if (!target) return null;
      host.context.flush(target.path);
      const links = await requestLocations(
        host,
        'textDocument/references',
        { textDocument: { uri: target.uri }, position: toLspPosition(position), context: { includeDeclaration: context.includeDeclaration } },
        token,
      );
      return links ? links.map((l) => ({ uri: l.uri, range: l.range })) : null;
    },
  };
  return host.languages.registerReferenceProvider(host.selector, markKandevProvider(provider));
}
