import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';
import { LANGUAGE_DESCRIPTORS } from '../../packages/protocol/src/languages/index.js';
import type { LanguageDescriptor } from '../../packages/protocol/src/languages/descriptor.js';

/**
 * `virtual:kandev-grammars`: one lazy loader per grammar the language descriptors name, and
 * Monaco's own registration of every other language it has a Monarch grammar for (Markdown, Java,
 * INI, SQL, ...), so a file of a language no descriptor serves is still coloured. Each grammar is
 * its own chunk, fetched when the first model of its language is tokenized (so a TypeScript file
 * never pays for twenty grammars); the TextMate collection contributes only what a descriptor names.
 */
export const GRAMMARS_MODULE = 'virtual:kandev-grammars';
const RESOLVED = `\0${GRAMMARS_MODULE}`;

/** A folder of monaco-editor's `basic-languages` and the Monaco language ids its contribution registers. */
export interface MonacoBasicLanguage {
  folder: string;
  ids: readonly string[];
}

/** The basic-languages folders of the installed monaco-editor, read from their contribution files. */
export function installedMonacoBasicLanguages(): MonacoBasicLanguage[] {
  const require = createRequire(import.meta.url);
  const root = join(dirname(require.resolve('monaco-editor/package.json')), 'esm/vs/basic-languages');
  const out: MonacoBasicLanguage[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    let source: string;
    try {
      source = readFileSync(join(root, entry.name, `${entry.name}.contribution.js`), 'utf8');
    } catch {
      continue; // a helper folder without a language of its own
    }
    const ids = [...source.matchAll(/\bid:\s*["']([^"']+)["']/g)].map((m) => m[1]!);
    if (ids.length > 0) out.push({ folder: entry.name, ids });
  }
  return out.sort((a, b) => a.folder.localeCompare(b.folder));
}

/**
 * The basic-languages folders whose contribution Monaco registers as it ships them: those none of
 * whose ids a descriptor claims. A descriptor's own ids are registered from the descriptor alone
 * (descriptorLanguages.ts), so two tokenizers never race for one language; a folder whose ids a
 * descriptor claims only in part would leave the rest unregistered, which is a build error.
 */
export function neighbourLanguages(descriptors: readonly LanguageDescriptor[], basic: readonly MonacoBasicLanguage[]): string[] {
  const claimed = new Set(descriptors.flatMap((d) => d.monaco.languageIds));
  const out: string[] = [];
  for (const { folder, ids } of basic) {
    const mine = ids.filter((id) => claimed.has(id));
    if (mine.length === 0) out.push(folder);
    else if (mine.length < ids.length)
      throw new Error(`Monaco's ${folder} contribution registers ${ids.join(', ')}; the descriptors claim only ${mine.join(', ')}: claim all of them or none`);
  }
  return out;
}

/** The module's source for these descriptors and Monaco basic languages (exported for its unit test). */
export function grammarsModuleSource(descriptors: readonly LanguageDescriptor[], basic: readonly MonacoBasicLanguage[]): string {
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
    // Monaco's own registrations (ids, extensions, a lazy grammar each) of the languages no descriptor claims.
    ...neighbourLanguages(descriptors, basic).map((f) => `import ${JSON.stringify(`monaco-editor/esm/vs/basic-languages/${f}/${f}.contribution.js`)};`),
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
    load: (id) => (id === RESOLVED ? grammarsModuleSource(LANGUAGE_DESCRIPTORS, installedMonacoBasicLanguages()) : undefined),
  };
}
