/**
 * Test support for the broker's unit tests (imported only by *.test.ts): a fake clock that fires
 * armed timers in time order, event shorthands, and effect selectors.
 */
import { DEFAULT_SETTINGS, type ControlFrame, type LanguageId, type StatusFrame, type UserSettings } from '@kandev/protocol';
import { LeaseBroker } from './broker.js';
import type { AttachmentId, BrokerEvent, BrokerOptions, BrowserOutFrame, Effect, JsonRpcId, JsonRpcMessage, LeaseId, TimerId } from './types.js';

/** A fixed epoch: nothing depends on the real clock. */
export const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);

export const WORKSPACE = { workspaceUri: 'file:///workspace', workspacePath: '/workspace', repoSubpaths: ['repoA'] };
export const INIT_RESULT = {
  capabilities: { hoverProvider: true, completionProvider: { triggerCharacters: ['.'] } },
  serverInfo: { name: 'fake' },
};

export interface ConnectOptions {
  session?: string;
  language?: LanguageId;
  user?: string;
  hint?: string;
  executorSupported?: boolean;
  settings?: UserSettings;
  /** The task's trust switch; absent sends no field (not trusted). */
  trusted?: boolean;
  /** An agent's MCP client; absent sends no field (a person's tab). */
  agent?: boolean;
}

/** What an untrusted agentctl stream reports in ready (task-host TypeScript and python). */
/** What agentctl's probes report for TypeScript's and Python's rules (one ready frame carries one language's). */
export const TRUSTED_TOOLS = { tools: { tsserver: '/opt/kandev/node_modules/typescript/lib/tsserver.js', python: '/usr/bin/python3' } } as const;

export function req(id: JsonRpcId, method: string, params?: unknown): JsonRpcMessage {
  return params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
}
export function notif(method: string, params?: unknown): JsonRpcMessage {
  return params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
}
export function res(id: JsonRpcId, result: unknown): JsonRpcMessage {
  return { jsonrpc: '2.0', id, result };
}
export function settingsWith(configs: UserSettings['lsp_server_configs'], extra: Partial<UserSettings> = {}): UserSettings {
  return { ...DEFAULT_SETTINGS, ...extra, lsp_server_configs: configs };
}
export function didOpen(uri: string, version: number, text = ''): JsonRpcMessage {
  return notif('textDocument/didOpen', { textDocument: { uri, languageId: 'go', version, text } });
}
export function didChange(uri: string, version: number, text = ''): JsonRpcMessage {
  return notif('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text }] });
}
export function diagnostics(uri: string, version?: number, message = 'problem'): JsonRpcMessage {
  const params: Record<string, unknown> = { uri, diagnostics: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message }] };
  if (version !== undefined) params.version = version;
  return notif('textDocument/publishDiagnostics', params);
}

export class BrokerHarness {
  now = T0;
  readonly broker: LeaseBroker;
  /** Every effect so far, in order. */
  readonly all: Effect[] = [];
  private readonly timers = new Map<TimerId, number>();
  private leaseIds = 0;

  constructor(options: Partial<BrokerOptions> = {}) {
    this.broker = new LeaseBroker({ newLeaseId: () => `L${++this.leaseIds}`, ...options });
  }

  handle(event: BrokerEvent): Effect[] {
    const effects = this.broker.handle(event, this.now);
    for (const e of effects) {
      if (e.type === 'armTimer') this.timers.set(e.timerId, e.atMs);
      if (e.type === 'cancelTimer') this.timers.delete(e.timerId);
    }
    this.all.push(...effects);
    return effects;
  }

  /** Moves the fake clock by `ms`, firing due timers in time order; returns their effects. */
  advance(ms: number): Effect[] {
    const until = this.now + ms;
    const out: Effect[] = [];
    for (;;) {
      const due = [...this.timers].filter(([, at]) => at <= until).sort((a, b) => a[1] - b[1])[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.now = Math.max(this.now, due[1]);
      out.push(...this.handle({ type: 'timerFired', timerId: due[0] }));
    }
    this.now = until;
    return out;
  }

  /** Timers the wiring would still hold (armed, not cancelled, not fired). */
  armedTimers(): Map<TimerId, number> {
    return new Map(this.timers);
  }

  connect(attachmentId: AttachmentId, o: ConnectOptions = {}): Effect[] {
    const event: BrokerEvent = {
      type: 'browserConnected',
      attachmentId,
      sessionId: o.session ?? 's1',
      language: o.language ?? 'go',
      userId: o.user ?? 'u1',
      executorSupported: o.executorSupported ?? true,
      settings: o.settings ?? DEFAULT_SETTINGS,
    };
    if (o.trusted !== undefined) event.trustWorkspaceTools = o.trusted;
    if (o.hint !== undefined) event.leaseHint = o.hint;
    if (o.agent) event.ownerKind = 'agent';
    return this.handle(event);
  }

  fromBrowser(attachmentId: AttachmentId, message: JsonRpcMessage): Effect[] {
    return this.handle({ type: 'browserFrame', attachmentId, frame: { kind: 'jsonrpc', message: message as JsonRpcMessage & { jsonrpc: '2.0' } } });
  }

  control(attachmentId: AttachmentId, frame: ControlFrame): Effect[] {
    return this.handle({ type: 'browserFrame', attachmentId, frame: { kind: 'control', frame } });
  }

  closeBrowser(attachmentId: AttachmentId): Effect[] {
    return this.handle({ type: 'browserClosed', attachmentId });
  }

  fromServer(leaseId: LeaseId, message: JsonRpcMessage): Effect[] {
    return this.handle({ type: 'upstreamFrame', leaseId, frame: { kind: 'jsonrpc', message: message as JsonRpcMessage & { jsonrpc: '2.0' } } });
  }

  hostStatus(leaseId: LeaseId, frame: Record<string, unknown>): Effect[] {
    return this.handle({ type: 'upstreamFrame', leaseId, frame: { kind: 'status', frame: frame as unknown as StatusFrame } });
  }

  /** agentctl's ready; an untrusted stream reports the task host's pins (TRUSTED_TOOLS by default; null: none found). */
  hostReady(leaseId: LeaseId, language: LanguageId = 'go', trustedTools: Record<string, unknown> | null = TRUSTED_TOOLS): Effect[] {
    return this.hostStatus(leaseId, { status: 'ready', language, ...WORKSPACE, ...(trustedTools ? { trustedTools } : {}) });
  }

  /** The holder asked for `newcomer` answered its ping (the wiring's report of a pong). */
  holderAnswered(newcomer: AttachmentId): Effect[] {
    return this.handle({ type: 'holderAnswered', newcomer });
  }

  /** The holder's socket gave up on the ping before the broker's deadline. */
  holderSilent(newcomer: AttachmentId): Effect[] {
    return this.handle({ type: 'holderSilent', newcomer });
  }

  upstreamClosed(leaseId: LeaseId, code: number): Effect[] {
    return this.handle({ type: 'upstreamClosed', leaseId, code });
  }

  /** Connects `attachmentId` to a NEW lease and takes it through launch, initialize, initialized. */
  readyLease(attachmentId: AttachmentId, o: ConnectOptions = {}): LeaseId {
    const leaseId = openedLease(this.connect(attachmentId, o));
    this.hostReady(leaseId, o.language ?? 'go');
    const sent = toServer(
      this.fromBrowser(attachmentId, req('init-1', 'initialize', { capabilities: {}, workspaceFolders: [{ uri: WORKSPACE.workspaceUri, name: 'w' }] })),
    );
    const serverId = sent[0]?.id;
    if (serverId === undefined) throw new Error('initialize was not forwarded');
    this.fromServer(leaseId, res(serverId as JsonRpcId, INIT_RESULT));
    this.fromBrowser(attachmentId, notif('initialized', {}));
    return leaseId;
  }
}

// ---------------------------------------------------------------------------------------------
// Effect selectors
// ---------------------------------------------------------------------------------------------

export function ofType<T extends Effect['type']>(effects: readonly Effect[], type: T): Extract<Effect, { type: T }>[] {
  return effects.filter((e): e is Extract<Effect, { type: T }> => e.type === type);
}

export function toServer(effects: readonly Effect[], leaseId?: LeaseId): JsonRpcMessage[] {
  return ofType(effects, 'sendToUpstream')
    .filter((e) => leaseId === undefined || e.leaseId === leaseId)
    .map((e) => e.message);
}

export function toBrowser(effects: readonly Effect[], attachmentId?: AttachmentId): BrowserOutFrame[] {
  return ofType(effects, 'sendToBrowser')
    .filter((e) => attachmentId === undefined || e.attachmentId === attachmentId)
    .map((e) => e.frame);
}

export function methods(messages: readonly BrowserOutFrame[]): string[] {
  return messages.map((m) => ('method' in m && typeof m.method === 'string' ? m.method : 'status' in m ? `status:${String(m.status)}` : 'response'));
}

export function browserCloses(effects: readonly Effect[]): Array<{ attachmentId: AttachmentId; code: number }> {
  return ofType(effects, 'closeBrowser').map(({ attachmentId, code }) => ({ attachmentId, code }));
}

export function openedLease(effects: readonly Effect[]): LeaseId {
  const opened = ofType(effects, 'openUpstream')[0];
  if (!opened) throw new Error(`no openUpstream in ${JSON.stringify(effects)}`);
  return opened.leaseId;
}

export function statusFrames(effects: readonly Effect[], attachmentId: AttachmentId): Array<Record<string, unknown>> {
  return toBrowser(effects, attachmentId).filter((f) => 'status' in f) as unknown as Array<Record<string, unknown>>;
}

export function logs(effects: readonly Effect[]): string[] {
  return ofType(effects, 'log').map((l) => `${l.event}/${l.reason}`);
}
