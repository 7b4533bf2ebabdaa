import { Emitter, type Event } from '@kandev/kit';
import type { Position, Range } from 'vscode-languageserver-protocol';
import type { CancellationLike } from '../jsonRpc.js';

/** Which hierarchy: callers and callees, or supertypes and subtypes. */
export type HierarchyKind = 'calls' | 'types';
export type HierarchyDirection = 'incoming' | 'outgoing' | 'supertypes' | 'subtypes';

export const DIRECTIONS: Record<HierarchyKind, readonly [HierarchyDirection, HierarchyDirection]> = {
  // The first is what the panel shows first, as VS Code does: who calls this, what derives from this.
  calls: ['incoming', 'outgoing'],
  types: ['subtypes', 'supertypes'],
};

/** Where a node points the person: a file of the workspace (or only a URI outside it) and a range in it. */
export interface HierarchyTarget {
  uri: string;
  /** Workspace-relative path; absent outside the workspace (shown, not opened). */
  path?: string;
  range: Range;
}

/** One item of a call or type hierarchy, as the panel shows it. */
export interface HierarchyNode {
  name: string;
  detail?: string;
  /** LSP SymbolKind (1-based). */
  kind: number;
  /** The item's own symbol (its selection range). */
  symbol: HierarchyTarget;
  /**
   * The call sites this node stands for (incoming: where it calls its parent, in its own file;
   * outgoing: where its parent calls it, in the parent's file); empty for roots and types.
   */
  sites: HierarchyTarget[];
  /** The next level in one direction (callHierarchy/incomingCalls, typeHierarchy/subtypes, ...). */
  expand(direction: HierarchyDirection, token?: CancellationLike): Promise<HierarchyNode[]>;
}

/** A connection's hierarchy of one kind: prepare at a position of an open document. */
export interface HierarchySource {
  kind: HierarchyKind;
  /** Undefined when this source does not cover the document (its registration's selector). */
  prepare(path: string, position: Position, token?: CancellationLike): Promise<HierarchyNode[]> | undefined;
}

/** What the person asked to see: a hierarchy at a position of a session's file. */
export interface HierarchyRequest {
  sessionId: string;
  path: string;
  position: Position;
  kind: HierarchyKind;
  /**
   * Gives the focus back to where the hierarchy was asked from (the editor) when the panel
   * closes: from the context menu the focused element at that moment is Monaco's menu, which is
   * gone by then.
   */
  returnFocus?(): void;
}

/** Requests to show a hierarchy (from the editor's actions), for the panel of the session to take. */
export class HierarchyRequests {
  private readonly requested = new Emitter<HierarchyRequest>();
  readonly onDidRequest: Event<HierarchyRequest> = this.requested.event;

  show(request: HierarchyRequest): void {
    this.requested.fire(request);
  }
}

/** The sources of one kind covering a session's path (from the editing registry's keyed sources). */
export function hierarchySourcesFor(
  sources: { forPath(sessionId: string, path: string): HierarchySource[] },
  sessionId: string,
  path: string,
  kind: HierarchyKind,
): HierarchySource[] {
  return sources.forPath(sessionId, path).filter((s) => s.kind === kind);
}
