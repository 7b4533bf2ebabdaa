import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { defineLanguage, LANGUAGE_DESCRIPTORS, languageDescriptor, type LanguageDescriptor, type MonacoTokenizer } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import { grammarsModuleSource, installedMonacoBasicLanguages, neighbourLanguages } from '../../../languageGrammars.js';
import { registerDescriptorLanguages, type LanguageServiceDefaults, type RegisteringLanguages } from './descriptorLanguages.js';

const require = createRequire(import.meta.url);
const monacoRoot = dirname(require.resolve('monaco-editor/package.json'));
const grammarsRoot = dirname(dirname(require.resolve('tm-grammars/grammars/toml.json')));

/** Monaco's registry as far as registration goes, recording what was asked of it. */
function fakeLanguages(known: string[] = []) {
  const registered: string[] = [];
  const factories = new Map<string, { create(): unknown }>();
  const configurations = new Map<string, unknown>();
  const languages = {
    getLanguages: () => known.map((id) => ({ id })),
    register: ({ id }: { id: string }) => void registered.push(id),
    registerTokensProviderFactory: (id: string, factory: { create(): unknown }) => {
      factories.set(id, factory);
      return { dispose() {} };
    },
    setLanguageConfiguration: (id: string, conf: unknown) => {
      configurations.set(id, conf);
      return { dispose() {} };
    },
  } as unknown as RegisteringLanguages;
  return { languages, registered, factories, configurations };
}

function recordingService() {
  const modes: Record<string, boolean>[] = [];
  const service: LanguageServiceDefaults = { setModeConfiguration: (c) => void modes.push(c), setDiagnosticsOptions: () => {} };
  return { service, modes };
}

const noSources = { monarch: {}, textmate: () => Promise.reject(new Error('not here')) };

describe('Monaco languages from the descriptors', () => {
  it('every Monaco language of every descriptor has a tokenizer, and each names a grammar this build has', () => {
    for (const d of LANGUAGE_DESCRIPTORS) {
      expect(Object.keys(d.monaco.tokenizers).sort(), d.id).toEqual([...d.monaco.languageIds].sort());
      for (const tokenizer of Object.values(d.monaco.tokenizers) as MonacoTokenizer[]) {
        if (tokenizer.kind === 'monarch')
          expect(existsSync(join(monacoRoot, 'esm/vs/basic-languages', tokenizer.module, `${tokenizer.module}.js`)), tokenizer.module).toBe(true);
        if (tokenizer.kind === 'textmate')
          for (const name of [tokenizer.grammar, ...tokenizer.embedded]) expect(existsSync(join(grammarsRoot, 'grammars', `${name}.json`)), name).toBe(true);
      }
    }
  });

  it('registers ids Monaco lacks, and a lazy tokenizer per id: nothing is loaded until a model asks', async () => {
    const { languages, registered, factories, configurations } = fakeLanguages(['json']);
    let loads = 0;
    const monarch = Object.fromEntries(
      LANGUAGE_DESCRIPTORS.flatMap((d) => Object.values(d.monaco.tokenizers)).flatMap((t) =>
        t.kind === 'monarch'
          ? [[t.module, async () => (loads++, { conf: { comments: { lineComment: t.module } }, language: { tokenizer: { root: [] } } })]]
          : [],
      ),
    );
    registerDescriptorLanguages(languages, LANGUAGE_DESCRIPTORS, { ...noSources, monarch }, {});
    expect(registered).toContain('python');
    expect(registered).toContain('typescript');
    expect(registered).not.toContain('json');
    expect(loads).toBe(0);
    // JSON's tokens come from Monaco's JSON service: no factory of ours.
    expect(factories.has('json')).toBe(false);
    const language = await factories.get('python')!.create();
    expect(language).toEqual({ tokenizer: { root: [] } });
    expect(configurations.get('python')).toEqual({ comments: { lineComment: 'python' } });
    expect(loads).toBe(1);
  });

  it('a Monaco service keeps its tokens only when the descriptor says its features are not built in', () => {
    const json = recordingService();
    const typescript = recordingService();
    registerDescriptorLanguages(
      fakeLanguages().languages,
      LANGUAGE_DESCRIPTORS,
      { ...noSources, monarch: monarchStubs() },
      {
        json: json.service,
        typescript: typescript.service,
      },
    );
    expect(json.modes).toHaveLength(1);
    expect(json.modes[0]).toMatchObject({ tokens: true, completionItems: false, hovers: false, diagnostics: false });
    expect(typescript.modes).toEqual([]);
  });

  it('a TextMate language gets its id and a factory that asks for its grammar', async () => {
    const toy = defineLanguage({
      ...(languageDescriptor('python') as LanguageDescriptor),
      id: 'toy-textmate',
      monaco: {
        languageIds: ['toy'],
        modelLanguageOfDocument: {},
        builtinLanguageService: false,
        tokenizers: { toy: { kind: 'textmate', grammar: 'toml', embedded: [] } },
      },
    });
    const { languages, registered, factories } = fakeLanguages();
    const asked: unknown[] = [];
    registerDescriptorLanguages(
      languages,
      [toy],
      { monarch: {}, textmate: async (t) => (asked.push(t), { getInitialState: () => null! as never, tokenize: () => null! as never }) },
      {},
    );
    expect(registered).toEqual(['toy']);
    expect(asked).toEqual([]);
    await factories.get('toy')!.create();
    expect(asked).toEqual([{ kind: 'textmate', grammar: 'toml', embedded: [] }]);
  });

  it('the build carries a lazy loader for exactly the grammars the descriptors name', () => {
    const source = grammarsModuleSource(LANGUAGE_DESCRIPTORS, installedMonacoBasicLanguages());
    expect(source).toContain(`"python": () => import("monaco-editor/esm/vs/basic-languages/python/python.js")`);
    // Java is no descriptor's: Monaco's own contribution registers it, not a loader of ours.
    expect(source).not.toContain('basic-languages/java/java.js');
    const toy = {
      ...languageDescriptor('python'),
      monaco: { ...languageDescriptor('python').monaco, tokenizers: { python: { kind: 'textmate', grammar: 'toml', embedded: ['json'] } } },
    };
    const withToy = grammarsModuleSource([toy as LanguageDescriptor], []);
    expect(withToy).toContain(`"toml": () => import("tm-grammars/grammars/toml.json")`);
    expect(withToy).toContain(`"json": () => import("tm-grammars/grammars/json.json")`);
    expect(JSON.parse(readFileSync(join(grammarsRoot, 'grammars/toml.json'), 'utf8')).scopeName).toBe('source.toml');
  });
});

describe('languages Monaco colours that no descriptor serves', () => {
  const basic = installedMonacoBasicLanguages();
  const contributionOf = (folder: string) => `import "monaco-editor/esm/vs/basic-languages/${folder}/${folder}.contribution.js";`;

  it("reads every language of Monaco's basic-languages folder, with the ids each registers", () => {
    const ids = basic.flatMap((b) => b.ids);
    for (const id of ['markdown', 'java', 'ini', 'sql', 'c', 'cpp', 'python']) expect(ids, id).toContain(id);
    expect(basic.find((b) => b.folder === 'cpp')?.ids).toEqual(['c', 'cpp']);
  });

  it('Markdown, Java, INI, SQL and every other Monaco language no descriptor claims are registered as Monaco ships them', () => {
    const source = grammarsModuleSource(LANGUAGE_DESCRIPTORS, basic);
    for (const folder of ['markdown', 'java', 'ini', 'sql', 'ruby', 'lua']) expect(source, folder).toContain(contributionOf(folder));
    const claimed = new Set(LANGUAGE_DESCRIPTORS.flatMap((d) => d.monaco.languageIds));
    for (const { folder, ids } of basic) {
      if (ids.some((id) => claimed.has(id))) expect(source, folder).not.toContain(contributionOf(folder));
      else expect(source, folder).toContain(contributionOf(folder));
    }
  });

  it("a descriptor's own ids are never registered a second time by Monaco's contribution", () => {
    const neighbours = neighbourLanguages(LANGUAGE_DESCRIPTORS, basic);
    for (const folder of ['python', 'typescript', 'javascript', 'cpp', 'php', 'css', 'scss', 'less']) expect(neighbours, folder).not.toContain(folder);
  });

  it('a descriptor claiming part of a contribution (c without cpp) is a build error naming both', () => {
    const cOnly = { ...languageDescriptor('cpp'), monaco: { ...languageDescriptor('cpp').monaco, languageIds: ['c'] } } as LanguageDescriptor;
    expect(() => neighbourLanguages([cOnly], basic)).toThrow(/cpp contribution registers c, cpp; the descriptors claim only c/);
  });
});

function monarchStubs() {
  return Object.fromEntries(
    LANGUAGE_DESCRIPTORS.flatMap((d) => Object.values(d.monaco.tokenizers)).flatMap((t) =>
      t.kind === 'monarch' ? [[t.module, async () => ({ conf: {}, language: { tokenizer: { root: [] } } })]] : [],
    ),
  );
}
