import type { Plugin } from 'vite';
import { LANGUAGE_DESCRIPTORS } from '../../packages/protocol/src/languages/index.js';
import type { LanguageDescriptor } from '../../packages/protocol/src/languages/descriptor.js';

/**
 * `virtual:kandev-grammars`: one lazy loader per grammar the language descriptors name, and no
 * other. Each loader is its own chunk, fetched when the first model of its language is tokenized
 * (so a TypeScript file never pays for twenty grammars), and the build carries only the grammars
 * Kandev's languages use, not the whole Monarch folder or TextMate collection.
 */
export const GRAMMARS_MODULE = 'virtual:kandev-grammars';
const RESOLVED = `\0${GRAMMARS_MODULE}`;

/** The module's source for these descriptors (exported for its unit test). */
export function grammarsModuleSource(descriptors: readonly LanguageDescriptor[]): string {
  const monarch = new Set<string>();
  const textmate = new Set<string>();
  for (const descriptor of descriptors) {
    for (const tokenizer of Object.values(descriptor.monaco.tokenizers)) {
      if (tokenizer.kind === 'monarch') monarch.add(tokenizer.module);
      if (tokenizer.kind === 'textmate') for (const name of [tokenizer.grammar, ...tokenizer.embedded]) textmate.add(name);
    }
  }
  const entries = (names: Set<string>, load: (name: string) => string) =>
    [...names]
      .sort()
      .map((name) => `  ${JSON.stringify(name)}: () => ${load(name)},`)
      .join('\n');
  return [
    'export const monarchLoaders = {',
    entries(monarch, (m) => `import(${JSON.stringify(`monaco-editor/esm/vs/basic-languages/${m}/${m}.js`)})`),
    '};',
    'export const textmateLoaders = {',
    entries(textmate, (g) => `import(${JSON.stringify(`tm-grammars/grammars/${g}.json`)}).then((m) => m.default)`),
    '};',
    '',
  ].join('\n');
}

export function languageGrammars(): Plugin {
  return {
    name: 'kandev-language-grammars',
    resolveId: (id) => (id === GRAMMARS_MODULE ? RESOLVED : undefined),
    load: (id) => (id === RESOLVED ? grammarsModuleSource(LANGUAGE_DESCRIPTORS) : undefined),
  };
}
