import type { Diagnostic, DocumentDiagnosticReport } from 'vscode-languageserver-protocol';
import { isRecord } from '@kandev/protocol';
import { after, DisposableStore, toDisposable, type Clock, type Disposable } from '@kandev/kit';
import type { FeatureRegistration } from '../capabilities.js';
import { CancelSource } from '../cancellation.js';
import type { FeatureContext } from '../features.js';
import { ErrorCodes, ResponseError } from '../jsonRpc.js';

/** How long other open documents wait after an edit before an inter-file server is asked again. */
export const INTER_FILE_PULL_DELAY_MS = 500;
/** How long a pull the server cancelled (ServerCancelled, retrigger asked) waits before it is asked again. */
export const RETRIGGER_PULL_DELAY_MS = 500;

type Report = { kind: 'full'; resultId?: string; items: Diagnostic[] } | { kind: 'unchanged'; resultId: string };

/** What one pull means for the markers: new diagnostics, or "unchanged since resultId". */
export function readReport(report: DocumentDiagnosticReport | null | undefined): Report | undefined {
  if (!report || typeof report !== 'object') return undefined;
  if (report.kind === 'unchanged' && typeof report.resultId === 'string') return { kind: 'unchanged', resultId: report.resultId };
  if (report.kind === 'full' && Array.isArray(report.items))
    return { kind: 'full', items: report.items, ...(typeof report.resultId === 'string' ? { resultId: report.resultId } : {}) };
  return undefined;
}

/** What the pull side needs from its connection generation and its markers. */
export interface PullDiagnosticsHost {
  readonly context: FeatureContext;
  readonly clock: Clock;
  /** The server URI of an open path this registration covers, else undefined. */
  targetUri(path: string, registration: FeatureRegistration<'diagnostic'>): string | undefined;
  /** The workspace-relative path of a server URI (related documents), else undefined. */
  toPath(uri: string): string | undefined;
  /** What `source` (one registration) reports for `path` now; undefined when it reports nothing any more. */
  report(path: string, source: string, diagnostics: Diagnostic[] | undefined): void;
  /** `source` is gone (unregistered, or the generation ended): its diagnostics leave every document. */
  drop(source: string): void;
}

/** One registration of textDocument/diagnostic and what was pulled through it. */
class Registration {
  readonly resultIds = new Map<string, string>();
  readonly inflight = new Map<string, CancelSource>();
  readonly retriggers = new Map<string, Disposable>();
  /** Documents edited since the last inter-file pull (they were pulled on their own change). */
  readonly edited = new Set<string>();
  interFile?: Disposable;

  constructor(readonly registration: FeatureRegistration<'diagnostic'>) {}

  get source(): string {
    return `pull:${this.registration.id}`;
  }

  get identifier(): string | undefined {
    return typeof this.registration.options.identifier === 'string' ? this.registration.options.identifier : undefined;
  }

  get interFileDependencies(): boolean {
    return this.registration.options.interFileDependencies === true;
  }

  /** Same options and selector: a re-registration under the same id that changes nothing. */
  sameAs(other: FeatureRegistration<'diagnostic'>): boolean {
    return JSON.stringify([this.registration.options, this.registration.documentSelector]) === JSON.stringify([other.options, other.documentSelector]);
  }

  cancel(path: string): void {
    this.inflight.get(path)?.cancel();
    this.inflight.delete(path);
    this.retriggers.get(path)?.dispose();
    this.retriggers.delete(path);
  }

  dispose(): void {
    for (const path of [...this.inflight.keys(), ...this.retriggers.keys()]) this.cancel(path);
    this.interFile?.dispose();
    this.interFile = undefined;
  }
}

/**
 * Pull diagnostics (textDocument/diagnostic) for one connection generation, as LSP 3.17 defines
 * them. Every registration is followed, static or dynamic, each with its own identifier and
 * result ids; a null document selector covers every document of the connection. A registration
 * that arrives pulls every document already open; an unregistration cancels its pulls and takes
 * its diagnostics away. Documents are pulled on open and after each didChange (a newer pull
 * cancels the older one), all again on workspace/diagnostic/refresh, and the other open documents
 * after a short quiet spell when the server declares inter-file dependencies. Related documents
 * of a full report are applied to those documents. On a resumed lease everything starts fresh
 * with the reopened documents, so the first pull repaints the markers.
 */
export class PullDiagnostics implements Disposable {
  private readonly registrations = new Map<string, Registration>();
  private readonly store = new DisposableStore();

  constructor(private readonly host: PullDiagnosticsHost) {
    const { context } = host;
    this.store.add(context.capabilities.onDidChange(() => this.follow()));
    this.store.add(context.onDocumentSync((event) => this.onSync(event.path, event.kind)));
    this.store.add(context.onDiagnosticRefresh(() => this.pullEverything()));
    this.store.add(
      toDisposable(() => {
        for (const reg of this.registrations.values()) reg.dispose();
        this.registrations.clear();
      }),
    );
    this.follow();
  }

  /** Brings the followed registrations in line with the capability index. */
  private follow(): void {
    if (this.store.isDisposed) return;
    const current = this.host.context.capabilities.registrations('diagnostic');
    const ids = new Set(current.map((r) => r.id));
    for (const [id, reg] of this.registrations) if (!ids.has(id)) this.remove(reg);
    for (const registration of current) {
      const existing = this.registrations.get(registration.id);
      if (existing?.sameAs(registration)) continue;
      if (existing) this.remove(existing);
      const reg = new Registration(registration);
      this.registrations.set(registration.id, reg);
      for (const path of this.host.context.openPaths()) void this.pull(reg, path);
    }
  }

  private remove(reg: Registration): void {
    reg.dispose();
    this.registrations.delete(reg.registration.id);
    this.host.drop(reg.source);
  }

  private onSync(path: string, kind: 'open' | 'change' | 'close'): void {
    for (const reg of this.registrations.values()) {
      if (kind === 'close') {
        reg.cancel(path);
        reg.resultIds.delete(path);
        reg.edited.delete(path);
        this.host.report(path, reg.source, undefined);
        continue;
      }
      void this.pull(reg, path);
      if (kind === 'change' && reg.interFileDependencies) this.pullOthersSoon(reg, path);
    }
  }

  private pullOthersSoon(reg: Registration, edited: string): void {
    reg.edited.add(edited);
    reg.interFile?.dispose();
    reg.interFile = after(this.host.clock, INTER_FILE_PULL_DELAY_MS, () => {
      reg.interFile = undefined;
      const skip = new Set(reg.edited);
      reg.edited.clear();
      for (const path of this.host.context.openPaths()) if (!skip.has(path)) void this.pull(reg, path);
    });
  }

  private pullEverything(): void {
    const paths = this.host.context.openPaths();
    for (const reg of this.registrations.values()) for (const path of paths) void this.pull(reg, path);
  }

  private async pull(reg: Registration, path: string): Promise<void> {
    if (this.store.isDisposed) return;
    const uri = this.host.targetUri(path, reg.registration);
    if (!uri) return;
    reg.cancel(path);
    const source = new CancelSource();
    reg.inflight.set(path, source);
    const params: Record<string, unknown> = { textDocument: { uri } };
    if (reg.identifier) params.identifier = reg.identifier;
    const previous = reg.resultIds.get(path);
    if (previous) params.previousResultId = previous;
    let raw: DocumentDiagnosticReport | null | undefined;
    try {
      raw = await this.host.context.request<DocumentDiagnosticReport>('textDocument/diagnostic', params, source.token);
    } catch (error) {
      if (reg.inflight.get(path) === source) reg.inflight.delete(path);
      if (this.current(reg) && !source.token.isCancellationRequested && asksRetrigger(error)) {
        reg.retriggers.set(
          path,
          after(this.host.clock, RETRIGGER_PULL_DELAY_MS, () => {
            reg.retriggers.delete(path);
            void this.pull(reg, path);
          }),
        );
      }
      return; // the server could not answer: the markers stay as they were
    }
    if (reg.inflight.get(path) !== source || !this.current(reg)) return; // superseded, unregistered or ended
    reg.inflight.delete(path);
    this.apply(reg, path, readReport(raw));
    const related = isRecord(raw) && raw.kind === 'full' && isRecord(raw.relatedDocuments) ? raw.relatedDocuments : undefined;
    for (const [relatedUri, report] of Object.entries(related ?? {})) {
      const relatedPath = this.host.toPath(relatedUri);
      if (relatedPath === undefined || relatedPath === path || !this.host.context.isOpen(relatedPath)) continue;
      // A report of its own supersedes any pull of that document still on its way.
      if (reg.inflight.has(relatedPath)) continue;
      this.apply(reg, relatedPath, readReport(report as DocumentDiagnosticReport));
    }
  }

  private current(reg: Registration): boolean {
    return !this.store.isDisposed && this.registrations.get(reg.registration.id) === reg;
  }

  private apply(reg: Registration, path: string, report: Report | undefined): void {
    if (!report) return;
    if (report.resultId) reg.resultIds.set(path, report.resultId);
    else reg.resultIds.delete(path);
    if (report.kind === 'full') this.host.report(path, reg.source, report.items);
  }

  dispose(): void {
    const sources = [...this.registrations.values()].map((r) => r.source);
    this.store.dispose();
    for (const source of sources) this.host.drop(source);
  }
}

/** ServerCancelled asks the client to send the request again unless `retriggerRequest` is false. */
function asksRetrigger(error: unknown): boolean {
  if (!(error instanceof ResponseError) || error.code !== ErrorCodes.ServerCancelled) return false;
  return !(isRecord(error.data) && error.data.retriggerRequest === false);
}
