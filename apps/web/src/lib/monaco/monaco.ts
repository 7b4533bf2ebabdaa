/**
 * The one runtime import of monaco-editor, loaded lazily (phones and the task list never pay for
 * it): the core editor and Monaco's TypeScript/JavaScript and JSON language services. Languages
 * and their tokenizers come from the language descriptors (descriptorLanguages.ts); the languages
 * no descriptor serves that Monaco has a grammar for (Markdown, Java, SQL, ...) are registered as
 * Monaco ships them, by `virtual:kandev-grammars`. Each grammar is its own chunk, fetched when a
 * model of its language is first coloured. Only two workers exist:
 * the editor worker and the TypeScript worker; anything else falls back to the editor worker.
 */
import 'monaco-editor/esm/vs/editor/edcore.main.js';
import { LANGUAGE_DESCRIPTORS, type MonacoTokenizer } from '@kandev/protocol';
import * as editorApi from 'monaco-editor/esm/vs/editor/editor.api.js';
import * as jsonContribution from 'monaco-editor/esm/vs/language/json/monaco.contribution.js';
import * as typescriptContribution from 'monaco-editor/esm/vs/language/typescript/monaco.contribution.js';
import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker.js?worker';
import TypeScriptWorker from 'monaco-editor/esm/vs/language/typescript/ts.worker.js?worker';
import { monarchLoaders, textmateLoaders } from 'virtual:kandev-grammars';
import { registerDescriptorLanguages, type LanguageServiceDefaults } from './descriptorLanguages.js';
import type { MonacoApi } from './monacoApi.js';
import type { WorkerGate } from './typescriptWorkerGate.js';

// The package ships no types for the JSON module (its .d.ts is empty).
const { jsonDefaults } = jsonContribution as unknown as { jsonDefaults: LanguageServiceDefaults };
const { typescriptDefaults, javascriptDefaults } = typescriptContribution as unknown as Record<string, LanguageServiceDefaults>;

registerDescriptorLanguages(
  editorApi.languages,
  LANGUAGE_DESCRIPTORS,
  {
    monarch: monarchLoaders,
    textmate: (tokenizer: Extract<MonacoTokenizer, { kind: 'textmate' }>) =>
      import('./textmate.js').then(({ textmateTokensProvider }) => textmateTokensProvider(textmateLoaders, tokenizer.grammar, tokenizer.embedded)),
  },
  // The language services this module ships, by the Monaco language they serve.
  { json: jsonDefaults, typescript: typescriptDefaults!, javascript: javascriptDefaults! },
);

const TYPESCRIPT_WORKER_LABELS = new Set(['typescript', 'javascript']);

/**
 * Monaco's workers for this page, set before its first editor. Monaco accepts a promised worker:
 * the TypeScript one is created (and its 7 MB fetched) only when `gate` opens; until then Monaco's
 * requests to it wait. The gate is the window's (services), so whoever owns it decides.
 */
export function setMonacoWorkers(gate: WorkerGate): void {
  (self as unknown as { MonacoEnvironment: { getWorker(id: string, label: string): Worker | Promise<Worker> } }).MonacoEnvironment = {
    getWorker(_id: string, label: string): Worker | Promise<Worker> {
      if (!TYPESCRIPT_WORKER_LABELS.has(label)) return new EditorWorker();
      return gate.whenOpen().then(() => new TypeScriptWorker());
    },
  };
}

/**
 * Monaco 0.55 exposes the TypeScript defaults as `monaco.typescript` (the old
 * `monaco.languages.typescript` is a deprecated alias); this object is shaped like the package's
 * root export so the rest of the app types against `typeof import('monaco-editor')`.
 */
export const monaco = { ...editorApi, typescript: typescriptContribution } as unknown as MonacoApi;
