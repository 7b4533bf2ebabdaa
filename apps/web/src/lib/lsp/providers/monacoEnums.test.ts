import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as mirrored from './monacoEnums.js';

// Read Monaco's own declarations instead of importing monaco-editor (which needs a DOM).
const require = createRequire(import.meta.url);
const dts = readFileSync(join(dirname(require.resolve('monaco-editor/package.json')), 'esm/vs/editor/editor.api.d.ts'), 'utf8');

function declaredEnum(name: string): Record<string, number> {
  const m = new RegExp(`enum ${name} \\{([\\s\\S]*?)\\n\\s*\\}`).exec(dts);
  if (!m) throw new Error(`enum ${name} not found in monaco-editor declarations`);
  const out: Record<string, number> = {};
  for (const line of (m[1] as string).split('\n')) {
    const e = /^\s*(\w+)\s*=\s*(\d+)/.exec(line);
    if (e) out[e[1] as string] = Number(e[2]);
  }
  return out;
}

describe('mirrored Monaco enums', () => {
  it.each([
    ['CompletionItemKind', mirrored.MonacoCompletionItemKind],
    ['CompletionItemTag', mirrored.MonacoCompletionItemTag],
    ['CompletionTriggerKind', mirrored.MonacoCompletionTriggerKind],
    ['SignatureHelpTriggerKind', mirrored.MonacoSignatureHelpTriggerKind],
    ['MarkerSeverity', mirrored.MonacoMarkerSeverity],
    ['MarkerTag', mirrored.MonacoMarkerTag],
    ['DocumentHighlightKind', mirrored.MonacoDocumentHighlightKind],
    ['InlayHintKind', mirrored.MonacoInlayHintKind],
    ['CodeActionTriggerType', mirrored.MonacoCodeActionTriggerType],
  ])('%s matches monaco-editor', (name, values) => {
    expect(values).toEqual(declaredEnum(name));
  });

  it('CompletionItemInsertTextRule values match monaco-editor', () => {
    const declared = declaredEnum('CompletionItemInsertTextRule');
    for (const [k, v] of Object.entries(mirrored.MonacoCompletionItemInsertTextRule)) expect(declared[k]).toBe(v);
  });
});
