import type {
  CallHierarchyIncomingCall,
  CallHierarchyItem,
  CallHierarchyOutgoingCall,
  Position,
  Range,
  TypeHierarchyItem,
} from 'vscode-languageserver-protocol';
import type { Disposable } from '@kandev/kit';
import type { FeatureRegistration } from '../capabilities.js';
import type { HierarchyDirection, HierarchyNode, HierarchySource, HierarchyTarget } from '../editing/hierarchy.js';
import type { CancellationLike } from '../jsonRpc.js';
import { workspaceRelativePath } from '../uris.js';
import type { ProviderHost } from './host.js';
import { isLspRange } from './ranges.js';

type Item = CallHierarchyItem | TypeHierarchyItem;
type Ask = <R>(method: string, params: unknown, token?: CancellationLike) => Promise<R>;

function isItem(value: unknown): value is Item {
  const item = value as Partial<Item> | null;
  return typeof item === 'object' && item !== null && typeof item.name === 'string' && typeof item.uri === 'string' && isLspRange(item.selectionRange);
}

function target(workspaceUri: string, uri: string, range: Range): HierarchyTarget {
  const path = workspaceRelativePath(workspaceUri, uri);
  return path === undefined ? { uri, range } : { uri, path, range };
}

/** The requests that take an item one level further, per direction. */
const NEXT: Record<HierarchyDirection, string> = {
  incoming: 'callHierarchy/incomingCalls',
  outgoing: 'callHierarchy/outgoingCalls',
  supertypes: 'typeHierarchy/supertypes',
  subtypes: 'typeHierarchy/subtypes',
};

/**
 * A server's item as a panel node. The item itself (its `data` included) is what the next level's
 * request sends back, unchanged, as the protocol asks.
 */
export function toHierarchyNode(item: Item, workspaceUri: string, ask: Ask, sites: HierarchyTarget[] = []): HierarchyNode {
  const node: HierarchyNode = {
    name: item.name,
    kind: typeof item.kind === 'number' ? item.kind : 13,
    symbol: target(workspaceUri, item.uri, item.selectionRange),
    sites,
    async expand(direction, token) {
      const answer = await ask<unknown>(NEXT[direction], { item }, token);
      return toHierarchyLevel(direction, answer, item, workspaceUri, ask);
    },
  };
  if (typeof item.detail === 'string' && item.detail) node.detail = item.detail;
  return node;
}

/** A prepare answer (an item list or null) as root nodes; malformed entries are skipped. */
export function toHierarchyRoots(answer: unknown, workspaceUri: string, ask: Ask): HierarchyNode[] {
  if (!Array.isArray(answer)) return [];
  return answer.filter(isItem).map((item) => toHierarchyNode(item, workspaceUri, ask));
}

function ranges(value: unknown): Range[] {
  return Array.isArray(value) ? value.filter(isLspRange) : [];
}

/**
 * One level's answer as nodes. Incoming calls carry their call sites in the caller (`from`'s
 * file); outgoing calls in the item being expanded (the parent's file); types have none.
 */
export function toHierarchyLevel(direction: HierarchyDirection, answer: unknown, parent: Item, workspaceUri: string, ask: Ask): HierarchyNode[] {
  if (!Array.isArray(answer)) return [];
  const out: HierarchyNode[] = [];
  for (const entry of answer as unknown[]) {
    if (direction === 'incoming') {
      const call = entry as Partial<CallHierarchyIncomingCall>;
      if (!isItem(call?.from)) continue;
      const from = call.from;
      out.push(
        toHierarchyNode(
          from,
          workspaceUri,
          ask,
          ranges(call.fromRanges).map((r) => target(workspaceUri, from.uri, r)),
        ),
      );
    } else if (direction === 'outgoing') {
      const call = entry as Partial<CallHierarchyOutgoingCall>;
      if (!isItem(call?.to)) continue;
      out.push(
        toHierarchyNode(
          call.to,
          workspaceUri,
          ask,
          ranges(call.fromRanges).map((r) => target(workspaceUri, parent.uri, r)),
        ),
      );
    } else if (isItem(entry)) {
      out.push(toHierarchyNode(entry, workspaceUri, ask));
    }
  }
  return out;
}

function source(host: ProviderHost, registration: FeatureRegistration<'callHierarchy' | 'typeHierarchy'>, method: string): HierarchySource {
  const { context } = host;
  const ask: Ask = (m, params, token) => context.request(m, params, token);
  return {
    kind: registration.feature === 'callHierarchy' ? 'calls' : 'types',
    prepare(path: string, position: Position, token?: CancellationLike) {
      const uri = host.targetUri(path, registration);
      if (!uri) return undefined;
      context.flush(path);
      return ask<unknown>(method, { textDocument: { uri }, position }, token).then((answer) => toHierarchyRoots(answer, context.workspace.workspaceUri, ask));
    },
  };
}

/** Call hierarchy: a source for the hierarchy panel (textDocument/prepareCallHierarchy, then incoming/outgoing calls). */
export function registerCallHierarchy(host: ProviderHost, registration: FeatureRegistration<'callHierarchy'>): Disposable {
  return host.editing.hierarchies.add(host.context.sessionId, host.context.language, source(host, registration, 'textDocument/prepareCallHierarchy'));
}

/** Type hierarchy: a source for the hierarchy panel (textDocument/prepareTypeHierarchy, then supertypes/subtypes). */
export function registerTypeHierarchy(host: ProviderHost, registration: FeatureRegistration<'typeHierarchy'>): Disposable {
  return host.editing.hierarchies.add(host.context.sessionId, host.context.language, source(host, registration, 'textDocument/prepareTypeHierarchy'));
}
