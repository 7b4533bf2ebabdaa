/**
 * TextMate tokenizing for Monaco languages that have no Monarch grammar (a descriptor's `textmate`
 * tokenizer): vscode-textmate with the Oniguruma regex engine (WebAssembly). Loaded only when the
 * first model of such a language is tokenized, never with the editor itself.
 */
import type * as Monaco from 'monaco-editor';
import { createOnigScanner, createOnigString, loadWASM } from 'vscode-oniguruma';
import onigWasmUrl from 'vscode-oniguruma/release/onig.wasm?url';
import { INITIAL, Registry, type IGrammar, type IRawGrammar, type StateStack } from 'vscode-textmate';
import { monacoTokenOfScopes } from './textmateScopes.js';

/** A grammar of the collection, by name; what the descriptors did not name is never loaded. */
export type GrammarLoaders = Readonly<Record<string, () => Promise<unknown>>>;

/** A grammar file as the collection ships it (its scope name is what other grammars include). */
interface CollectionGrammar extends IRawGrammar {
  name?: string;
}

let onig: Promise<void> | undefined;

function onigLib() {
  onig ??= fetch(onigWasmUrl).then((response) => loadWASM(response));
  return onig.then(() => ({ createOnigScanner, createOnigString }));
}

/** Lines longer than this are not tokenized (a minified line would hold the UI thread). */
const MAX_LINE_LENGTH = 20_000;

class TextmateState implements Monaco.languages.IState {
  constructor(readonly stack: StateStack) {}
  clone(): TextmateState {
    return new TextmateState(this.stack.clone());
  }
  equals(other: Monaco.languages.IState): boolean {
    return other instanceof TextmateState && other.stack.equals(this.stack);
  }
}

/** Grammars read so far, by scope name: what a grammar includes is looked up here. */
const byScope = new Map<string, CollectionGrammar>();
/** One registry for the page: a grammar embedded by two languages is compiled once. */
let registry: Registry | undefined;

/** The tokens provider of `grammar`, with the `embedded` grammars its blocks include. */
export async function textmateTokensProvider(loaders: GrammarLoaders, grammar: string, embedded: readonly string[]): Promise<Monaco.languages.TokensProvider> {
  const load = async (name: string): Promise<CollectionGrammar | null> => {
    const loader = loaders[name];
    return loader ? ((await loader()) as CollectionGrammar) : null;
  };
  const raws = await Promise.all([grammar, ...embedded].map(load));
  for (const raw of raws) if (raw) byScope.set(raw.scopeName, raw);
  const main = raws[0];
  if (!main) throw new Error(`no TextMate grammar named ${grammar}`);
  // Scopes nobody loaded (an embedded language the descriptor did not list) stay uncoloured.
  registry ??= new Registry({ onigLib: onigLib(), loadGrammar: async (scopeName) => byScope.get(scopeName) ?? null });
  const loaded: IGrammar | null = await registry.loadGrammar(main.scopeName);
  if (!loaded) throw new Error(`TextMate grammar ${grammar} did not load`);
  return {
    getInitialState: () => new TextmateState(INITIAL),
    tokenize(line, state) {
      const stack = (state as TextmateState).stack;
      if (line.length > MAX_LINE_LENGTH) return { tokens: [{ startIndex: 0, scopes: '' }], endState: state };
      const result = loaded.tokenizeLine(line, stack);
      return {
        tokens: result.tokens.map((token) => ({ startIndex: token.startIndex, scopes: monacoTokenOfScopes(token.scopes) })),
        endState: new TextmateState(result.ruleStack),
      };
    },
  };
}
