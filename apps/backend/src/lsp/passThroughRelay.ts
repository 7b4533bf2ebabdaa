import { randomBytes } from 'node:crypto';
import { CloseCode, parseFrame, type ReleaseReason } from '@kandev/protocol';
import type { Logger } from '../log.js';
import { browserCloseFor } from './closeMirror.js';
import type { BrowserEndpoint, BrowserFrame, LspRelay, RelayConnection, UpstreamEndpoint } from './relay.js';

export interface PassThroughOptions {
  /** How long release waits for the server's `shutdown` answer, then for the upstream to close. */
  releaseStepTimeoutMs?: number;
}

const RELEASE_STEP_TIMEOUT_MS = 5_000;
/** The id of the relay's own `shutdown` request; a string no browser client generates. */
const SHUTDOWN_ID = 'kandev:release:shutdown';

/**
 * One browser connection = one upstream stream = one server process, for the life of the tab. No
 * continuity (every ready is `resumed:false`); it is the baseline the lease broker replaces.
 */
export class PassThroughRelay implements LspRelay {
  private readonly links = new Set<PassThroughLink>();

  constructor(private readonly log: Logger, private readonly options: PassThroughOptions = {}) {}

  attach(browser: BrowserEndpoint, connection: RelayConnection): Promise<void> {
    const link = new PassThroughLink(browser, connection, this.log, this.options.releaseStepTimeoutMs ?? RELEASE_STEP_TIMEOUT_MS);
    this.links.add(link);
    return link.run().finally(() => this.links.delete(link));
  }

  async shutdown(): Promise<void> {
    await Promise.all([...this.links].map((link) => link.shutdown()));
  }
}

type LinkState = 'connecting' | 'open' | 'releasing' | 'closed';

class PassThroughLink {
  private state: LinkState = 'connecting';
  private upstream: UpstreamEndpoint | undefined;
  private readonly lease = randomBytes(18).toString('base64url');
  private upstreamClosed!: Promise<number>;
  private browserClosed!: Promise<number>;
  private shutdownAnswered: (() => void) | undefined;

  constructor(
    private readonly browser: BrowserEndpoint,
    private readonly connection: RelayConnection,
    private readonly log: Logger,
    private readonly stepTimeoutMs: number,
  ) {}

  /** Settles once both sockets are closed. */
  async run(): Promise<void> {
    this.browserClosed = new Promise((resolve) => this.browser.onClose(resolve));
    void this.browserClosed.then(() => this.onBrowserClosed());
    const opened = await this.connection.openUpstream();
    if (!opened.ok) {
      this.log.warn('lsp_upstream_failed', { sessionId: this.connection.request.sessionId, language: this.connection.request.language, detail: opened.error });
      this.state = 'closed';
      this.browser.close(CloseCode.Unavailable, 'task_host_unavailable');
      await this.browserClosed;
      return;
    }
    const upstream = opened.value;
    this.upstream = upstream;
    this.upstreamClosed = new Promise((resolve) => upstream.onClose(resolve));
    if (this.state === 'closed') {
      // The tab went away while the stream opened: the server it started goes too.
      upstream.close(CloseCode.Normal);
      await this.upstreamClosed;
      return;
    }
    this.state = 'open';
    void this.upstreamClosed.then((code) => this.onUpstreamClosed(code));
    upstream.onFrame((text) => this.fromUpstream(text));
    this.browser.onFrame((frame) => this.fromBrowser(frame));
    this.browser.resume();
    await Promise.all([this.browserClosed, this.upstreamClosed]);
  }

  async shutdown(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.browser.close(CloseCode.GoingAway);
    this.upstream?.close(CloseCode.GoingAway);
  }

  private fromBrowser(frame: BrowserFrame): void {
    if (this.state !== 'open') return;
    if (frame.kind === 'jsonrpc') {
      this.upstream?.send(frame.text);
      return;
    }
    if (frame.frame.control === 'attachment-ready') {
      // Nothing was retained, so there is nothing to synchronize: documents are already open.
      this.browser.sendStatus({ status: 'synchronized' });
      return;
    }
    void this.release(frame.frame.reason);
  }

  private fromUpstream(text: string): void {
    const parsed = parseFrame(text);
    if (this.state === 'releasing') {
      if (parsed.kind === 'jsonrpc' && parsed.message.id === SHUTDOWN_ID) this.shutdownAnswered?.();
      return;
    }
    if (this.state !== 'open') return;
    switch (parsed.kind) {
      case 'jsonrpc':
        this.browser.sendText(text);
        return;
      case 'status': {
        const frame = parsed.frame;
        if (frame.status === 'ready') {
          this.browser.sendStatus({ ...frame, lease: this.lease, resumed: false });
        } else if (frame.status === 'installing' || frame.status === 'installed' || frame.status === 'install_failed') {
          this.browser.sendText(text);
        }
        // synchronized/released are ours to say, never agentctl's: dropped.
        return;
      }
      default:
        // agentctl broke the contract; the server may still run, so this is a transport failure.
        this.state = 'closed';
        this.upstream?.close(1007);
        this.browser.close(CloseCode.TransportFailure, 'upstream_protocol_error');
    }
  }

  /** Explicit release: LSP shutdown (bounded), exit, close the stream and wait, then `released`. */
  private async release(reason: ReleaseReason): Promise<void> {
    const upstream = this.upstream;
    if (this.state !== 'open' || !upstream) return;
    this.state = 'releasing';
    const answered = new Promise<void>((resolve) => {
      this.shutdownAnswered = resolve;
    });
    upstream.send(JSON.stringify({ jsonrpc: '2.0', id: SHUTDOWN_ID, method: 'shutdown' }));
    await this.within(Promise.race([answered, this.upstreamClosed]));
    upstream.send(JSON.stringify({ jsonrpc: '2.0', method: 'exit' }));
    upstream.close(CloseCode.Normal);
    await this.within(this.upstreamClosed);
    this.log.info('lsp_released', { sessionId: this.connection.request.sessionId, language: this.connection.request.language, reason });
    this.state = 'closed';
    this.browser.sendStatus({ status: 'released', reason });
    this.browser.close(CloseCode.Normal);
  }

  private onBrowserClosed(): void {
    if (this.state === 'releasing') return;
    const wasOpen = this.state === 'open';
    this.state = 'closed';
    // Pass-through has no detached state: the tab is gone, so is its server.
    if (wasOpen) this.upstream?.close(CloseCode.Normal);
  }

  private onUpstreamClosed(code: number): void {
    if (this.state !== 'open') return;
    this.state = 'closed';
    this.browser.close(browserCloseFor(code));
  }

  private async within(promise: Promise<unknown>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([promise, new Promise((resolve) => (timer = setTimeout(resolve, this.stepTimeoutMs)))]);
    clearTimeout(timer);
  }
}
