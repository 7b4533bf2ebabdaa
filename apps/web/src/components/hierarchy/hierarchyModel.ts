import { Emitter, type Event } from '@kandev/kit';
import { CancelSource } from '../../lib/lsp/cancellation.js';
import { DIRECTIONS, type HierarchyDirection, type HierarchyNode, type HierarchyRequest, type HierarchySource } from '../../lib/lsp/editing/hierarchy.js';
import type { Level } from './hierarchyTree.js';

export type Roots = { status: 'loading' } | { status: 'unavailable' } | { status: 'failed'; message: string } | { status: 'done'; nodes: HierarchyNode[] };

export interface HierarchyState {
  request: HierarchyRequest;
  direction: HierarchyDirection;
  roots: Roots;
  /** Loaded levels by row key (hierarchyRows); a key present means the row is expanded. */
  levels: ReadonlyMap<string, Level>;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * What the hierarchy panel shows, one request at a time: the roots from prepare, then one level
 * per expansion, asked only when the person expands a node (roots open by themselves). A newer
 * request, a direction change or closing cancels what is still pending ($/cancelRequest) and
 * drops its answers.
 */
export class HierarchyModel {
  private current: HierarchyState | undefined;
  private pending = new CancelSource();
  private readonly changed = new Emitter<void>();
  readonly onDidChange: Event<void> = this.changed.event;

  constructor(private readonly sourcesFor: (request: HierarchyRequest) => HierarchySource[]) {}

  readonly getSnapshot = (): HierarchyState | undefined => this.current;

  open(request: HierarchyRequest): void {
    this.restart();
    const direction = DIRECTIONS[request.kind][0];
    this.set({ request, direction, roots: { status: 'loading' }, levels: new Map() });
    const token = this.pending.token;
    const asked = this.sourcesFor(request)
      .map((source) => source.prepare(request.path, request.position, token))
      .filter((p): p is Promise<HierarchyNode[]> => p !== undefined);
    if (asked.length === 0) return this.set({ ...this.current!, roots: { status: 'unavailable' } });
    void Promise.allSettled(asked).then((answers) => {
      if (token.isCancellationRequested) return;
      const nodes = answers.flatMap((a) => (a.status === 'fulfilled' ? a.value : []));
      const failed = answers.find((a): a is PromiseRejectedResult => a.status === 'rejected');
      if (nodes.length === 0 && failed) return this.set({ ...this.current!, roots: { status: 'failed', message: messageOf(failed.reason) } });
      this.set({ ...this.current!, roots: { status: 'done', nodes } });
      nodes.forEach((node, i) => this.expand(`/${i}`, node));
    });
  }

  /** Shows the other direction (incoming/outgoing, subtypes/supertypes) from the same roots. */
  setDirection(direction: HierarchyDirection): void {
    const state = this.current;
    if (!state || state.direction === direction) return;
    this.restart();
    this.set({ ...state, direction, levels: new Map() });
    if (state.roots.status === 'done') state.roots.nodes.forEach((node, i) => this.expand(`/${i}`, node));
  }

  /** Expands a collapsed row (asking for its level) or collapses an expanded one. */
  toggle(key: string, node: HierarchyNode): void {
    const state = this.current;
    if (!state) return;
    if (state.levels.has(key)) {
      const levels = new Map(state.levels);
      for (const k of levels.keys()) if (k === key || k.startsWith(`${key}/`)) levels.delete(k);
      return this.set({ ...state, levels });
    }
    this.expand(key, node);
  }

  close(): void {
    this.restart();
    this.set(undefined);
  }

  /** Cancels what is pending (the panel went away); the model stays usable, as a remounted view reuses it. */
  dispose(): void {
    this.restart();
  }

  private expand(key: string, node: HierarchyNode): void {
    const state = this.current;
    if (!state) return;
    const token = this.pending.token;
    const loading: Level = { status: 'loading' };
    this.setLevel(key, loading);
    // An answer counts only while its row still waits for it (not collapsed, not superseded).
    const waiting = () => !token.isCancellationRequested && this.current?.levels.get(key) === loading;
    node.expand(state.direction, token).then(
      (children) => waiting() && this.setLevel(key, { status: 'done', children }),
      (err: unknown) => waiting() && this.setLevel(key, { status: 'failed', message: messageOf(err) }),
    );
  }

  private setLevel(key: string, level: Level): void {
    if (!this.current) return;
    this.set({ ...this.current, levels: new Map(this.current.levels).set(key, level) });
  }

  private restart(): void {
    this.pending.cancel();
    this.pending = new CancelSource();
  }

  private set(state: HierarchyState | undefined): void {
    this.current = state;
    this.changed.fire();
  }
}
