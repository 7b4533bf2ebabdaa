import type { LspPosition, LspRange } from './positions.js';
import { isRange } from './positions.js';

/** LSP SymbolKind numbers by the names agents use. */
export const SYMBOL_KINDS = [
  'file',
  'module',
  'namespace',
  'package',
  'class',
  'method',
  'property',
  'field',
  'constructor',
  'enum',
  'interface',
  'function',
  'variable',
  'constant',
  'string',
  'number',
  'boolean',
  'array',
  'object',
  'key',
  'null',
  'enum_member',
  'struct',
  'event',
  'operator',
  'type_parameter',
] as const;

export function kindName(kind: unknown): string {
  return typeof kind === 'number' ? (SYMBOL_KINDS[kind - 1] ?? 'symbol') : 'symbol';
}

export interface FlatSymbol {
  name: string;
  kind: string;
  container: string | undefined;
  /** Where the identifier itself is. */
  at: LspPosition;
  range: LspRange;
  depth: number;
}

/** DocumentSymbol[] (hierarchical) or SymbolInformation[] (flat), as one flat list. */
export function flattenSymbols(result: unknown, text: string | undefined): FlatSymbol[] {
  const out: FlatSymbol[] = [];
  const walk = (items: unknown, container: string | undefined, depth: number): void => {
    if (!Array.isArray(items)) return;
    for (const raw of items as Array<Record<string, unknown>>) {
      if (typeof raw?.name !== 'string') continue;
      const location = raw.location as { range?: unknown } | undefined;
      const range = isRange(raw.range) ? raw.range : isRange(location?.range) ? location.range : undefined;
      if (!range) continue;
      const selection = isRange(raw.selectionRange) ? raw.selectionRange.start : identifierIn(text, range, raw.name);
      const parent = typeof raw.containerName === 'string' && raw.containerName !== '' ? raw.containerName : container;
      out.push({ name: raw.name, kind: kindName(raw.kind), container: parent, at: selection, range, depth });
      walk(raw.children, raw.name, depth + 1);
    }
  };
  walk(result, undefined, 0);
  return out;
}

/** The identifier's position inside a symbol's range (flat SymbolInformation has no selection range). */
function identifierIn(text: string | undefined, range: LspRange, name: string): LspPosition {
  const lines = text?.split('\n') ?? [];
  for (let line = range.start.line; line <= range.end.line && line < lines.length; line++) {
    const from = line === range.start.line ? range.start.character : 0;
    const match = new RegExp(`(?<![\\w$])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w$])`).exec((lines[line] as string).slice(from));
    if (match) return { line, character: from + match.index };
  }
  return range.start;
}

export interface SymbolQuery {
  symbol: string;
  kind?: string | undefined;
  container?: string | undefined;
}

export type SymbolMatch = { kind: 'one'; symbol: FlatSymbol } | { kind: 'none'; searched: number } | { kind: 'many'; candidates: FlatSymbol[] };

/** Exact name (the last segment of `A.b` also names its container), then kind and container. */
export function findSymbol(symbols: FlatSymbol[], query: SymbolQuery): SymbolMatch {
  let name = query.symbol;
  let container = query.container;
  const dot = name.lastIndexOf('.');
  if (dot > 0 && container === undefined) {
    container = name.slice(0, dot).split('.').at(-1);
    name = name.slice(dot + 1);
  }
  const matches = symbols.filter(
    (s) =>
      (s.name === name || s.name.replace(/\(.*\)$/, '') === name) &&
      (query.kind === undefined || s.kind === query.kind) &&
      (container === undefined || s.container === container),
  );
  if (matches.length === 1) return { kind: 'one', symbol: matches[0] as FlatSymbol };
  if (matches.length === 0) return { kind: 'none', searched: symbols.length };
  return { kind: 'many', candidates: matches };
}
