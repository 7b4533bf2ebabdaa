/**
 * The one runtime import of monaco-editor, loaded lazily (phones and the task list never pay for
 * it). Core editor, the TypeScript/JavaScript language service, and syntax highlighting for the
 * catalog languages and a few common neighbours (JSON: tokens only, see below). Only two workers exist: the editor worker and
 * the TypeScript worker; anything else falls back to the editor worker.
 */
import 'monaco-editor/esm/vs/editor/edcore.main.js';
import * as editorApi from 'monaco-editor/esm/vs/editor/editor.api.js';
import * as typescriptContribution from 'monaco-editor/esm/vs/language/typescript/monaco.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/typescript/typescript.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/javascript/javascript.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/python/python.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/go/go.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/rust/rust.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/kotlin/kotlin.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/markdown/markdown.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/yaml/yaml.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/shell/shell.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/dockerfile/dockerfile.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/html/html.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/css/css.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/scss/scss.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/less/less.contribution.js';
import * as jsonContribution from 'monaco-editor/esm/vs/language/json/monaco.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/ini/ini.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/java/java.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/cpp/cpp.contribution.js';
import 'monaco-editor/esm/vs/basic-languages/sql/sql.contribution.js';
import EditorWorker from 'monaco-editor/esm/vs/editor/editor.worker.js?worker';
import TypeScriptWorker from 'monaco-editor/esm/vs/language/typescript/ts.worker.js?worker';
import type { MonacoApi } from './monacoApi.js';
import type { WorkerGate } from './typescriptWorkerGate.js';

// JSON: Monaco's mode is kept for its tokenizer only. Completion, hover, validation and the rest
// come from the task host's JSON server (with the workspace's schemas); Monaco's own would run a
// third worker and show a second, schema-less set of diagnostics.
// The package ships no types for this module (its .d.ts is empty); these are the two calls used.
interface JsonDefaults {
  setModeConfiguration(configuration: Record<string, boolean>): void;
  setDiagnosticsOptions(options: Record<string, unknown>): void;
}
const jsonDefaults = (jsonContribution as unknown as { jsonDefaults: JsonDefaults }).jsonDefaults;
jsonDefaults.setModeConfiguration({
  tokens: true,
  documentFormattingEdits: false,
  documentRangeFormattingEdits: false,
  completionItems: false,
  hovers: false,
  documentSymbols: false,
  colors: false,
  foldingRanges: false,
  diagnostics: false,
  selectionRanges: false,
});
jsonDefaults.setDiagnosticsOptions({ validate: false, enableSchemaRequest: false });

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
