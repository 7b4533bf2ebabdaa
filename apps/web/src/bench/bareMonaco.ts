/**
 * Benchmark-only page (bench-monaco.html, `npm run bench`): the same build's Monaco showing one
 * session file and nothing else (no React, no app shell, no language server), the floor the real
 * editor's first load is compared with. `#<sessionId>/<path>` names the file.
 */
import { apiPath } from '@kandev/protocol';
import { monacoLanguageForPath } from '../lib/monaco/languages.js';
import { WorkerGate } from '../lib/monaco/typescriptWorkerGate.js';

const [sessionId = '', ...rest] = decodeURIComponent(window.location.hash.slice(1)).split('/');
const path = rest.join('/');

const [{ monaco, setMonacoWorkers }, file] = await Promise.all([
  import('../lib/monaco/monaco.js'),
  fetch(apiPath('sessionFile', { id: sessionId }, { path })).then((r) => r.json() as Promise<{ content?: string }>),
]);
// A gate nobody opens: like the real editor before a built-in is needed, no TypeScript worker.
setMonacoWorkers(new WorkerGate());
const container = document.getElementById('editor') as HTMLElement;
const model = monaco.editor.createModel(file.content ?? '', monacoLanguageForPath(path));
monaco.editor.create(container, { model, automaticLayout: true });
container.dataset.testid = 'bare-editor';
container.dataset.ready = 'true';
