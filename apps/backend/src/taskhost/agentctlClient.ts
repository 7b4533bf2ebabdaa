import { type Clock, type Disposable, after, systemClock } from '@kandev/kit';
import {
  TASK_HOST_PATHS,
  TASK_HOST_RESTART_PATHS,
  workspaceIdentityOf,
  type LiveStreamAccount,
  type LiveStreamsReply,
  type WorkspaceIdentity,
} from '@kandev/protocol';
import type { Readable } from 'node:stream';
import type { TaskHostEndpoint } from './endpoint.js';
import { bodyOf, exchange, exchangeFailure } from './httpExchange.js';
import { fail, ok, type Result } from '../base/result.js';

export interface ForwardedResponse {
  status: number;
  contentType: string;
  body: Buffer;
}

/** An answer whose body is still arriving (a streamed search); abort() cancels it on agentctl. */
export interface StreamedResponse {
  status: number;
  contentType: string;
  body: Readable;
  abort(): void;
}

/** How a streamed upload ended: agentctl answered, the body passed the limit, or it never ended. */
export type UploadOutcome = { kind: 'answered'; response: ForwardedResponse } | { kind: 'too_large'; limit: number } | { kind: 'cut_off' };

export interface UploadOptions {
  contentType: string;
  /** The most bytes the body may have: counted as it passes, the upload is aborted beyond. */
  limit: number;
  /** Inactivity bound, restarted by every chunk passing and once more when the body has ended. */
  idleTimeoutMs: number;
  /** False when the body ended without being complete (the browser's request was cut off). */
  complete(): boolean;
  /** Aborted when the body's source is gone (the browser hung up), whether or not a chunk is awaited. */
  cutOff?: AbortSignal;
}

/** Thrown into the request body so agentctl sees it broken off, never ended short (a truncated file). */
class UploadStopped extends Error {}

export interface HostHealth extends WorkspaceIdentity {
  platform?: string;
}

const REQUEST_TIMEOUT_MS = 30_000;

/** The HTTP side of one agentctl (docs/internals.md): health and the files API, bearer token on every call. */
export class AgentctlClient {
  constructor(
    private readonly endpoint: TaskHostEndpoint,
    private readonly clock: Clock = systemClock,
  ) {}

  /** An abort signal that fires `timeoutMs` from now on this client's clock, as a TimeoutError. */
  private deadline(timeoutMs: number): { controller: AbortController; timer: Disposable } {
    const controller = new AbortController();
    const timer = after(this.clock, timeoutMs, () => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')));
    return { controller, timer };
  }

  async health(timeoutMs = REQUEST_TIMEOUT_MS): Promise<Result<HostHealth, string>> {
    const response = await this.forward('GET', TASK_HOST_PATHS.health, undefined, timeoutMs);
    if (!response.ok) return response;
    if (response.value.status !== 200) return fail(`agentctl health answered HTTP ${response.value.status}`);
    let body: unknown;
    try {
      body = JSON.parse(response.value.body.toString('utf8'));
    } catch {
      return fail('agentctl health is not JSON');
    }
    // The identity a ready frame will carry later, refused whole by the same rule if malformed.
    const identity = workspaceIdentityOf(body, 'agentctl health');
    if (!identity.ok) return fail(identity.error);
    const health: HostHealth = identity.identity;
    const { platform } = body as { platform?: unknown };
    if (typeof platform === 'string') health.platform = platform;
    return ok(health);
  }

  /** One request to agentctl; the answer comes back unchanged (status, type, bytes). */
  /** agentctl's account of its live LSP streams (what a re-adopting backend rebuilds leases from). */
  async liveStreams(timeoutMs = REQUEST_TIMEOUT_MS): Promise<Result<LiveStreamAccount[], string>> {
    const response = await this.forward('GET', TASK_HOST_RESTART_PATHS.streams, undefined, timeoutMs);
    if (!response.ok) return response;
    if (response.value.status !== 200) return fail(`agentctl streams answered HTTP ${response.value.status}`);
    try {
      const body = JSON.parse(response.value.body.toString('utf8')) as Partial<LiveStreamsReply>;
      return Array.isArray(body.streams) ? ok(body.streams.filter(isStreamAccount)) : fail('agentctl streams: no list');
    } catch {
      return fail('agentctl streams is not JSON');
    }
  }

  async forward(method: string, pathAndQuery: string, body: string | undefined, timeoutMs = REQUEST_TIMEOUT_MS): Promise<Result<ForwardedResponse, string>> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.endpoint.token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    // The deadline covers the headers and the whole body, as AbortSignal.timeout did.
    const { controller, timer } = this.deadline(timeoutMs);
    try {
      const response = await exchange(`${this.endpoint.baseUrl}${pathAndQuery}`, { method, headers, body, signal: controller.signal });
      const bytes = await bodyOf(response.body);
      return ok({ status: response.status, contentType: response.contentType, body: bytes });
    } catch (err) {
      return fail(`agentctl unreachable: ${exchangeFailure(err, controller.signal)}`);
    } finally {
      timer.dispose();
    }
  }

  /**
   * A request whose body is passed on as it arrives (a save): at most one chunk is held here. The
   * bytes are counted while they pass; past `limit` the request to agentctl is broken off (agentctl
   * then drops what it staged) and the outcome says so. No whole-request timer: the deadline is
   * `idleTimeoutMs` without progress, so a slow large upload goes through and a stalled one does not.
   */
  async upload(method: string, pathAndQuery: string, body: AsyncIterable<Uint8Array>, options: UploadOptions): Promise<Result<UploadOutcome, string>> {
    const controller = new AbortController();
    const stall = () => controller.abort(new DOMException('The upload made no progress in time', 'TimeoutError'));
    let idle = after(this.clock, options.idleTimeoutMs, stall);
    const progress = () => {
      idle.dispose();
      idle = after(this.clock, options.idleTimeoutMs, stall);
    };
    let stopped: 'too_large' | 'cut_off' | undefined;
    const stop = (why: 'too_large' | 'cut_off'): never => {
      stopped = why;
      controller.abort();
      throw new UploadStopped(why);
    };
    const hungUp = () => {
      stopped ??= 'cut_off';
      controller.abort();
    };
    if (options.cutOff?.aborted) hungUp();
    options.cutOff?.addEventListener('abort', hungUp, { once: true });
    async function* counted(): AsyncGenerator<Uint8Array> {
      let sent = 0;
      try {
        for await (const chunk of body) {
          progress();
          sent += chunk.byteLength;
          if (sent > options.limit) stop('too_large');
          yield chunk;
        }
      } catch (err) {
        if (err instanceof UploadStopped) throw err;
        stop('cut_off');
      }
      if (!options.complete()) stop('cut_off');
      // The body is all there: agentctl's answer (version check, rename) gets a fresh bound.
      progress();
    }
    try {
      const response = await exchange(`${this.endpoint.baseUrl}${pathAndQuery}`, {
        method,
        headers: { authorization: `Bearer ${this.endpoint.token}`, 'content-type': options.contentType },
        body: counted(),
        signal: controller.signal,
      });
      const bytes = await bodyOf(response.body);
      // A refusal agentctl answered before the body had all arrived (413) is still its answer.
      return ok({ kind: 'answered', response: { status: response.status, contentType: response.contentType, body: bytes } });
    } catch (err) {
      if (stopped === 'too_large') return ok({ kind: 'too_large', limit: options.limit });
      if (stopped === 'cut_off') return ok({ kind: 'cut_off' });
      return fail(`agentctl unreachable: ${exchangeFailure(err, controller.signal)}`);
    } finally {
      idle.dispose();
      options.cutOff?.removeEventListener('abort', hungUp);
    }
  }

  /**
   * A GET whose body is passed on as it arrives. Only waiting for the headers is bounded in time: a
   * long search keeps streaming until it ends or the caller aborts, which cancels it on agentctl.
   */
  async open(pathAndQuery: string, timeoutMs = REQUEST_TIMEOUT_MS): Promise<Result<StreamedResponse, string>> {
    // Aborted without a reason, as before: only the wait for the headers is bounded.
    const controller = new AbortController();
    const headersDeadline = after(this.clock, timeoutMs, () => controller.abort());
    try {
      const response = await exchange(`${this.endpoint.baseUrl}${pathAndQuery}`, {
        method: 'GET',
        headers: { authorization: `Bearer ${this.endpoint.token}` },
        signal: controller.signal,
      });
      const body: Readable = response.body;
      // Aborting surfaces as an error on the body; the caller has stopped listening by then.
      body.on('error', () => undefined);
      return ok({ status: response.status, contentType: response.contentType, body, abort: () => controller.abort() });
    } catch (err) {
      return fail(`agentctl unreachable: ${exchangeFailure(err, controller.signal)}`);
    } finally {
      headersDeadline.dispose();
    }
  }
}

function isStreamAccount(value: unknown): value is LiveStreamAccount {
  const a = value as Partial<LiveStreamAccount> | null;
  return (
    typeof a === 'object' &&
    a !== null &&
    typeof a.stream === 'number' &&
    typeof a.language === 'string' &&
    typeof a.trustWorkspaceTools === 'boolean' &&
    typeof a.maxRequestId === 'number' &&
    Array.isArray(a.documents) &&
    a.documents.every((d) => typeof d?.uri === 'string' && typeof d?.version === 'number')
  );
}
