import type { Diagnostic, DocumentDiagnosticReport } from 'vscode-languageserver-protocol';
import type { FeatureRegistration } from '../capabilities.js';
import { CancelSource } from '../cancellation.js';
import { DisposableStore, toDisposable, type Disposable } from '@kandev/kit';
import type { ProviderHost } from './host.js';

/** What one pull means for the markers: new diagnostics, or "unchanged since resultId". */
export function readReport(
  report: DocumentDiagnosticReport | null | undefined,
): { kind: 'full'; resultId?: string; items: Diagnostic[] } | { kind: 'unchanged'; resultId: string } | undefined {
  if (!report || typeof report !== 'object') return undefined;
  if (report.kind === 'unchanged' && typeof report.resultId === 'string') return { kind: 'unchanged', resultId: report.resultId };
  if (report.kind === 'full' && Array.isArray(report.items))
    return { kind: 'full', items: report.items, ...(typeof report.resultId === 'string' ? { resultId: report.resultId } : {}) };
  return undefined;
}

/**
 * Pull diagnostics (textDocument/diagnostic): pulled on open, on each didChange, and for every
 * open document on workspace/diagnostic/refresh, with the previous result id so the server can
 * answer "unchanged". A newer pull of a document cancels the older one. On a resumed lease the
 * documents are reopened, so the first pull gives correct markers at once, whatever versions the
 * server would have published.
 */
export function registerPullDiagnostics(host: ProviderHost, registration: FeatureRegistration<'diagnostic'>): Disposable {
  const store = new DisposableStore();
  const { context } = host;
  const identifier = typeof registration.options.identifier === 'string' ? registration.options.identifier : undefined;
  const resultIds = new Map<string, string>();
  const inflight = new Map<string, CancelSource>();
  const open = new Set<string>();

  const pull = async (path: string) => {
    const uri = host.targetUri(path, registration);
    if (!uri) return;
    inflight.get(path)?.cancel();
    const source = new CancelSource();
    inflight.set(path, source);
    const params: Record<string, unknown> = { textDocument: { uri } };
    if (identifier) params.identifier = identifier;
    const previous = resultIds.get(path);
    if (previous) params.previousResultId = previous;
    let report;
    try {
      report = readReport(await context.request<DocumentDiagnosticReport>('textDocument/diagnostic', params, source.token));
    } catch {
      return; // cancelled, or the server could not answer: the markers stay as they were
    } finally {
      if (inflight.get(path) === source) inflight.delete(path);
    }
    if (!report || store.isDisposed || !open.has(path)) return;
    if (report.resultId) resultIds.set(path, report.resultId);
    if (report.kind === 'full') host.setPulledDiagnostics(path, report.items);
  };

  store.add(
    context.onDocumentSync(({ path, kind }) => {
      if (kind === 'close') {
        open.delete(path);
        resultIds.delete(path);
        inflight.get(path)?.cancel();
        host.setPulledDiagnostics(path, []);
        return;
      }
      open.add(path);
      void pull(path);
    }),
  );
  store.add(context.onDiagnosticRefresh(() => open.forEach((path) => void pull(path))));
  store.add(toDisposable(() => inflight.forEach((s) => s.cancel())));
  return store;
}
