/** A FeatureContext for provider unit tests: requests recorded and answered by a script. */
import type { LanguageId } from '@kandev/protocol';
import { ServerCapabilityIndex } from '../capabilities.js';
import { Emitter, ManualClock, type Clock } from '@kandev/kit';
import type { FeatureContext } from '../features.js';
import { failureOf } from '../requestFailures.js';

export interface RecordedRequest {
  method: string;
  params: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- assertions read into params
  token?: { isCancellationRequested: boolean };
}

export function fakeFeatureContext(options: {
  sessionId?: string;
  language?: LanguageId;
  capabilities: ServerCapabilityIndex | Record<string, unknown>;
  answer?: (method: string, params: any) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any
  open?: (path: string) => boolean;
  /** Paths open on the server side (pull diagnostics pull them when a registration arrives). */
  openPaths?: () => string[];
  clock?: Clock;
  /** The connection ended without anybody asking (a request rejected by its end is then a loss worth telling). */
  connectionLost?: boolean;
}) {
  const requests: RecordedRequest[] = [];
  const notifications: Array<{ method: string; params: any }> = []; // eslint-disable-line @typescript-eslint/no-explicit-any -- assertions read into params
  const refresh = { semantic: new Emitter<void>(), diagnostic: new Emitter<void>(), inlayHint: new Emitter<void>(), codeLens: new Emitter<void>() };
  const sync = new Emitter<{ path: string; kind: 'open' | 'change' | 'close' }>();
  const capabilities = options.capabilities instanceof ServerCapabilityIndex ? options.capabilities : new ServerCapabilityIndex(options.capabilities);
  const context: FeatureContext = {
    sessionId: options.sessionId ?? 's1',
    language: options.language ?? 'typescript',
    generation: 1,
    capabilities,
    workspace: { workspaceUri: 'file:///workspace', workspacePath: '/workspace', repoSubpaths: [] },
    request: async <R>(method: string, params: unknown, token?: { isCancellationRequested: boolean }) => {
      requests.push({ method, params, token });
      return (await options.answer?.(method, params)) as R;
    },
    failureOf: (feature, error) => failureOf(feature, error, options.connectionLost ?? false),
    notify: (method: string, params: unknown) => {
      notifications.push({ method, params });
    },
    flush: () => undefined,
    isOpen: options.open ?? (() => true),
    openPaths: options.openPaths ?? (() => []),
    clock: options.clock ?? new ManualClock(),
    onSemanticTokensRefresh: refresh.semantic.event,
    onDiagnosticRefresh: refresh.diagnostic.event,
    onInlayHintRefresh: refresh.inlayHint.event,
    onCodeLensRefresh: refresh.codeLens.event,
    onDocumentSync: sync.event,
  };
  return { context, requests, notifications, refresh, sync };
}
