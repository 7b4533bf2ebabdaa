import { describe, expect, it } from 'vitest';
import type { HierarchyDirection, HierarchyNode, HierarchyRequest, HierarchySource } from '../../lib/lsp/editing/hierarchy.js';
import type { CancellationLike } from '../../lib/lsp/jsonRpc.js';
import { HierarchyModel } from './hierarchyModel.js';
import { hierarchyRows, jumpTarget } from './hierarchyTree.js';

const at = (line: number) => ({ start: { line, character: 0 }, end: { line, character: 1 } });

/** A node whose levels answer when the test resolves them, recording what was asked. */
function node(
  name: string,
  asked: Array<{ name: string; direction: HierarchyDirection; token?: CancellationLike; resolve(children: HierarchyNode[]): void }>,
): HierarchyNode {
  return {
    name,
    kind: 12,
    symbol: { uri: `file:///ws/${name}.ts`, path: `${name}.ts`, range: at(1) },
    sites: [],
    expand: (direction, token) => new Promise((resolve) => asked.push({ name, direction, token, resolve })),
  };
}

const request: HierarchyRequest = { sessionId: 's', path: 'a.ts', position: { line: 0, character: 0 }, kind: 'calls' };
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('hierarchy panel model', () => {
  it('opens on the roots and their first level only; deeper levels are asked when a row is expanded', async () => {
    const asked: Parameters<typeof node>[1] = [];
    const root = node('area', asked);
    const source: HierarchySource = { kind: 'calls', prepare: () => Promise.resolve([root]) };
    const model = new HierarchyModel(() => [source]);
    model.open(request);
    expect(model.getSnapshot()!.roots).toEqual({ status: 'loading' });
    await flush();
    expect(asked.map((a) => [a.name, a.direction])).toEqual([['area', 'incoming']]);
    const caller = node('total', asked);
    asked[0]!.resolve([caller]);
    await flush();
    let rows = hierarchyRows((model.getSnapshot()!.roots as { nodes: HierarchyNode[] }).nodes, model.getSnapshot()!.levels);
    expect(rows.map((r) => (r.kind === 'node' ? `${r.depth}:${r.node.name}` : r.note))).toEqual(['0:area', '1:total']);
    expect(asked).toHaveLength(1);
    model.toggle('/0/0', caller);
    expect(asked.map((a) => a.name)).toEqual(['area', 'total']);
    asked[1]!.resolve([]);
    await flush();
    rows = hierarchyRows([root], model.getSnapshot()!.levels);
    expect(rows.map((r) => (r.kind === 'node' ? r.node.name : r.note))).toEqual(['area', 'total', 'none']);
    // Collapsing the root drops what was under it.
    model.toggle('/0', root);
    expect(hierarchyRows([root], model.getSnapshot()!.levels)).toHaveLength(1);
  });

  it('switching direction cancels pending levels and asks again the other way; late answers are dropped', async () => {
    const asked: Parameters<typeof node>[1] = [];
    const root = node('area', asked);
    const model = new HierarchyModel(() => [{ kind: 'calls', prepare: () => Promise.resolve([root]) }]);
    model.open(request);
    await flush();
    model.setDirection('outgoing');
    expect(asked[0]!.token!.isCancellationRequested).toBe(true);
    expect(asked.map((a) => a.direction)).toEqual(['incoming', 'outgoing']);
    asked[0]!.resolve([node('stale', asked)]);
    await flush();
    expect(model.getSnapshot()!.levels.get('/0')).toEqual({ status: 'loading' });
  });

  it('no source: unavailable; a prepare that fails: its message; a row with call sites jumps to the first one', async () => {
    const model = new HierarchyModel(() => []);
    model.open(request);
    expect(model.getSnapshot()!.roots).toEqual({ status: 'unavailable' });
    const failing = new HierarchyModel(() => [{ kind: 'calls', prepare: () => Promise.reject(new Error('method not found')) }]);
    failing.open(request);
    await flush();
    expect(failing.getSnapshot()!.roots).toEqual({ status: 'failed', message: 'method not found' });
    const site = { uri: 'file:///ws/b.ts', path: 'b.ts', range: at(9) };
    expect(jumpTarget({ ...node('x', []), sites: [site] })).toBe(site);
    expect(jumpTarget(node('x', [])).path).toBe('x.ts');
  });
});
