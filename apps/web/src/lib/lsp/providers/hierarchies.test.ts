import { describe, expect, it } from 'vitest';
import { toHierarchyLevel, toHierarchyNode, toHierarchyRoots } from './hierarchies.js';

const WS = 'file:///ws';
const range = (line: number, start: number, end: number) => ({ start: { line, character: start }, end: { line, character: end } });
const item = (name: string, uri: string, line: number, data?: unknown) => ({
  name,
  kind: 12,
  uri,
  range: range(line, 0, 20),
  selectionRange: range(line, 9, 9 + name.length),
  detail: 'd',
  data,
});

describe('hierarchy mappers', () => {
  it('prepare answers become roots; malformed items and non-arrays are dropped', () => {
    const asked: unknown[] = [];
    const roots = toHierarchyRoots([item('area', `${WS}/a.ts`, 3), { name: 'broken' }, null], WS, async (m, p) => (asked.push([m, p]), []));
    expect(roots.map((r) => [r.name, r.symbol.path, r.symbol.range.start, r.sites])).toEqual([['area', 'a.ts', { line: 3, character: 9 }, []]]);
    expect(toHierarchyRoots(null, WS, async () => [])).toEqual([]);
    expect(toHierarchyRoots({ name: 'x' }, WS, async () => [])).toEqual([]);
  });

  it('incoming calls: the caller, with its call sites in its own file', () => {
    const parent = item('area', `${WS}/a.ts`, 3);
    const nodes = toHierarchyLevel(
      'incoming',
      [{ from: item('total', `${WS}/sum.ts`, 7), fromRanges: [range(8, 4, 8), range(9, 4, 8), 'bad'] }, { from: null }],
      parent,
      WS,
      async () => [],
    );
    expect(nodes).toHaveLength(1);
    expect(nodes[0]!.name).toBe('total');
    expect(nodes[0]!.sites).toEqual([
      { uri: `${WS}/sum.ts`, path: 'sum.ts', range: range(8, 4, 8) },
      { uri: `${WS}/sum.ts`, path: 'sum.ts', range: range(9, 4, 8) },
    ]);
  });

  it('outgoing calls: the callee, with the call sites in the file of the item expanded', () => {
    const parent = item('total', `${WS}/sum.ts`, 7);
    const [node] = toHierarchyLevel('outgoing', [{ to: item('area', `${WS}/a.ts`, 3), fromRanges: [range(8, 4, 8)] }], parent, WS, async () => []);
    expect(node!.symbol.path).toBe('a.ts');
    expect(node!.sites).toEqual([{ uri: `${WS}/sum.ts`, path: 'sum.ts', range: range(8, 4, 8) }]);
  });

  it('types: items as they are; a URI outside the workspace keeps no path', () => {
    const nodes = toHierarchyLevel(
      'supertypes',
      [item('Shape', `${WS}/shape.ts`, 0), item('Base', 'file:///usr/include/base.h', 2)],
      item('Square', `${WS}/sq.ts`, 1),
      WS,
      async () => [],
    );
    expect(nodes.map((n) => [n.name, n.symbol.path, n.sites.length])).toEqual([
      ['Shape', 'shape.ts', 0],
      ['Base', undefined, 0],
    ]);
  });

  it('expanding sends the server its own item back (data included) to the direction method, and maps the answer', async () => {
    const asked: Array<[string, unknown]> = [];
    const original = item('area', `${WS}/a.ts`, 3, { token: 42 });
    const node = toHierarchyNode(original, WS, async <R>(method: string, params: unknown) => {
      asked.push([method, params]);
      return (method === 'typeHierarchy/subtypes' ? [item('Square', `${WS}/sq.ts`, 1)] : [{ from: item('total', `${WS}/sum.ts`, 7), fromRanges: [] }]) as R;
    });
    expect((await node.expand('incoming')).map((n) => n.name)).toEqual(['total']);
    expect((await node.expand('subtypes')).map((n) => n.name)).toEqual(['Square']);
    await node.expand('outgoing');
    await node.expand('supertypes');
    expect(asked.map(([m]) => m)).toEqual(['callHierarchy/incomingCalls', 'typeHierarchy/subtypes', 'callHierarchy/outgoingCalls', 'typeHierarchy/supertypes']);
    expect(asked[0]![1]).toEqual({ item: original });
  });
});
