import type { LanguageId, WorkspaceIdentity } from '@kandev/protocol';
import type { ApplyWorkspaceEditParams, ApplyWorkspaceEditResult, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import type { ServerCapabilityIndex } from './capabilities.js';
import type { Clock, Disposable, Event } from '@kandev/kit';
import type { CancellationLike } from './jsonRpc.js';
import type { AskedFeature, RequestFailure } from './requestFailures.js';

/**
 * What one connection generation hands to the editor integration (Monaco providers, markers,
 * built-in suppression). Everything in it belongs to that generation: a request made through it
 * after the generation ended rejects, and nothing here can reach a newer generation (S33).
 */
export interface FeatureContext {
  readonly sessionId: string;
  readonly language: LanguageId;
  readonly generation: number;
  readonly capabilities: ServerCapabilityIndex;
  /** Workspace identity from this generation's ready frame (S34). */
  readonly workspace: WorkspaceIdentity;
  request<R>(method: string, params: unknown, token?: CancellationLike): Promise<R>;
  /** What a rejected request for `feature` means to the person (timeout, error, lost connection), or undefined when it means nothing. */
  failureOf(feature: AskedFeature, error: unknown): RequestFailure | undefined;
  /** A notification to this generation's server (file operations: workspace/did*Files). */
  notify(method: string, params: unknown): void;
  /** Sends the pending didChange of a document before a request reads it. */
  flush(path: string): void;
  /** Is this workspace-relative path open on the server side (didOpen sent)? */
  isOpen(path: string): boolean;
  /** Every workspace-relative path open on the server side, in the order they were opened. */
  openPaths(): string[];
  /** Timers of this generation: pull diagnostics and the requests the editor makes on its own wait on it. */
  readonly clock: Clock;
  /** Server asked for `workspace/semanticTokens/refresh`. */
  readonly onSemanticTokensRefresh: Event<void>;
  /** Server asked for `workspace/diagnostic/refresh` (pull diagnostics again). */
  readonly onDiagnosticRefresh: Event<void>;
  /** Server asked for `workspace/inlayHint/refresh`. */
  readonly onInlayHintRefresh: Event<void>;
  /** Server asked for `workspace/codeLens/refresh`. */
  readonly onCodeLensRefresh: Event<void>;
  /** didOpen / didChange / didClose went out for a path. */
  readonly onDocumentSync: Event<{ path: string; kind: 'open' | 'change' | 'close' }>;
}

/** What binding features returns: diagnostics intake, and disposal of exactly what it acquired (S30). */
export interface FeatureBinding extends Disposable {
  publishDiagnostics(params: PublishDiagnosticsParams): void;
  /** The server's `workspace/applyEdit` request: applied atomically, or refused with a reason. */
  applyEdit(params: ApplyWorkspaceEditParams): Promise<ApplyWorkspaceEditResult>;
}

export type FeatureBinder = (context: FeatureContext) => FeatureBinding;
