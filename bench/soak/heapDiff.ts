/** Two V8 heap snapshots (.heapsnapshot) compared by constructor: what was added between them. */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

export interface ConstructorCount {
  count: number;
  selfBytes: number;
}

/** Objects and closures by constructor / function name; everything else by its node type, as DevTools groups them. */
export function countByConstructor(path: string): Map<string, ConstructorCount> {
  const snap = JSON.parse(readFileSync(path, 'utf8')) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const width = fields.length;
  const at = (name: string) => fields.indexOf(name);
  const [typeAt, nameAt, sizeAt] = [at('type'), at('name'), at('self_size')];
  const out = new Map<string, ConstructorCount>();
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt] as number] as string;
    const key = type === 'object' || type === 'closure' || type === 'native' ? (snap.strings[snap.nodes[i + nameAt] as number] as string) : `(${type})`;
    const entry = out.get(key) ?? { count: 0, selfBytes: 0 };
    entry.count++;
    entry.selfBytes += snap.nodes[i + sizeAt] as number;
    out.set(key, entry);
  }
  return out;
}

export interface ConstructorGrowth {
  name: string;
  countBefore: number;
  countAfter: number;
  bytesGrowth: number;
}

/** The constructors that grew most in retained self size from `before` to `after`, largest first. */
export function heapGrowth(before: string, after: string, top = 12): ConstructorGrowth[] {
  const a = countByConstructor(before);
  const b = countByConstructor(after);
  const names = new Set([...a.keys(), ...b.keys()]);
  return [...names]
    .map((name) => ({
      name,
      countBefore: a.get(name)?.count ?? 0,
      countAfter: b.get(name)?.count ?? 0,
      bytesGrowth: (b.get(name)?.selfBytes ?? 0) - (a.get(name)?.selfBytes ?? 0),
    }))
    .sort((x, y) => y.bytesGrowth - x.bytesGrowth || y.countAfter - y.countBefore - (x.countAfter - x.countBefore))
    .slice(0, top);
}
