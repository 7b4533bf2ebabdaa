/** A short, language-neutral glyph per LSP SymbolKind (1-based); the full name is in the tooltip. */
const GLYPHS: Record<number, string> = {
  1: 'F',
  2: 'M',
  3: 'N',
  4: 'P',
  5: 'C',
  6: 'm',
  7: 'p',
  8: 'f',
  9: 'c',
  10: 'E',
  11: 'I',
  12: 'ƒ',
  13: 'v',
  14: 'k',
  15: '"',
  16: '#',
  17: 'b',
  18: '[',
  19: '{',
  20: 'K',
  21: '∅',
  22: 'e',
  23: 'S',
  24: '⚡',
  25: '±',
  26: 'T',
};

export function symbolGlyph(kind: number): string {
  return GLYPHS[kind] ?? '·';
}

/** CSS modifier for a kind group (types, callables, values), so colours tell them apart. */
export function symbolGroup(kind: number): 'type' | 'callable' | 'value' | 'other' {
  if ([5, 10, 11, 23, 26, 3, 2, 4].includes(kind)) return 'type';
  if ([6, 9, 12, 25].includes(kind)) return 'callable';
  if ([7, 8, 13, 14, 22].includes(kind)) return 'value';
  return 'other';
}
