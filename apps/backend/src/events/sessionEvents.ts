/**
 * One events upstream per session (agentctl's workspace events), fanned out to that session's
 * pages. agentctl's frames reach every page as its text; the latest `watch` and `git` frames are
 * kept so a page that joins later starts with them. A page that does not drain is sent no change
 * frames until it drains, then one `overflow` (nothing queued for it without bound). The pages'
 * `in_view` controls go upstream as their union. Listening never touches the task host's idle
 * timer: a page that only watches does not keep a task host running.
 */
import type { Disposable } from '@kandev/kit';
import { CloseCode } from '@kandev/protocol';
import type { Logger } from '../base/log.js';
import type { Result } from '../base/result.js';
import { parsePageControl, unionControl, type InView } from './inViewUnion.js';

/** The hop to agentctl or to a page: a FrameSocket does (text frames, watermarks, close once). */
export interface EventsSocket {
  readonly isClosed: boolean;
  readonly isFull: boolean;
  send(text: string): void;
  close(code: number): void;
  onText(listener: (frame: { text: string } | { binary: true }) => void): Disposable;
  onClose(listener: (code: number) => void): Disposable;
  onBackpressure(listener: (full: boolean) => void): Disposable;
}

export type OpenEventsUpstream = (sessionId: string) => Promise<Result<EventsSocket, string>>;

interface Page {
  socket: EventsSocket;
  inView: InView;
  missed: boolean;
  registrations: Disposable[];
}

interface SessionFeed {
  pages: Set<Page>;
  upstream: EventsSocket | undefined;
  watch: string | undefined;
  git: string | undefined;
  ended: boolean;
}

export class SessionEventsHub {
  private readonly feeds = new Map<string, SessionFeed>();

  constructor(
    private readonly openUpstream: OpenEventsUpstream,
    private readonly log: Logger,
  ) {}

  /** Pages listening now, over all sessions. */
  get pageCount(): number {
    let count = 0;
    for (const feed of this.feeds.values()) count += feed.pages.size;
    return count;
  }

  attach(sessionId: string, socket: EventsSocket): void {
    let feed = this.feeds.get(sessionId);
    const fresh = feed === undefined;
    if (!feed) {
      feed = { pages: new Set(), upstream: undefined, watch: undefined, git: undefined, ended: false };
      this.feeds.set(sessionId, feed);
    }
    const page: Page = { socket, inView: { files: [], folders: [] }, missed: false, registrations: [] };
    feed.pages.add(page);
    const current = feed;
    if (current.watch) socket.send(current.watch);
    if (current.git) socket.send(current.git);
    page.registrations.push(
      socket.onText((frame) => {
        if (!('text' in frame)) return;
        const view = parsePageControl(frame.text);
        // A bad control is refused whole and logged; the page keeps its last view and its stream.
        if (!view.ok) return this.log.warn('in_view_refused', { code: view.error.code, detail: view.error.message });
        page.inView = view.value;
        this.sendInView(current);
      }),
      socket.onBackpressure((full) => {
        if (!full && page.missed) {
          page.missed = false;
          socket.send('{"type":"overflow"}');
        }
      }),
      socket.onClose(() => this.detach(sessionId, current, page)),
    );
    this.log.info('events_opened', { pages: current.pages.size });
    if (fresh) void this.connect(sessionId, current);
  }

  /** The session's task host stopped: its pages hear 4002 and may come back when it runs again. */
  sessionEnded(sessionId: string): void {
    const feed = this.feeds.get(sessionId);
    if (feed) this.end(sessionId, feed, CloseCode.Unavailable);
  }

  shutdown(): void {
    for (const [sessionId, feed] of [...this.feeds]) this.end(sessionId, feed, CloseCode.GoingAway);
  }

  private async connect(sessionId: string, feed: SessionFeed): Promise<void> {
    const opened = await this.openUpstream(sessionId);
    if (feed.ended) {
      if (opened.ok) opened.value.close(CloseCode.Normal);
      return;
    }
    if (!opened.ok) {
      this.log.warn('events_upstream_failed', { reason: 'task_host_unavailable', detail: opened.error });
      this.end(sessionId, feed, CloseCode.Unavailable);
      return;
    }
    const upstream = opened.value;
    feed.upstream = upstream;
    upstream.onText((frame) => {
      if (!('text' in frame)) return;
      this.fromTaskHost(feed, frame.text);
    });
    upstream.onClose(() => {
      if (feed.upstream === upstream) this.end(sessionId, feed, CloseCode.Unavailable);
    });
    this.sendInView(feed);
  }

  private fromTaskHost(feed: SessionFeed, text: string): void {
    // agentctl writes `type` first; the state frames are kept for pages that join later.
    const isChange = text.startsWith('{"type":"files"') || text.startsWith('{"type":"overflow"');
    if (text.startsWith('{"type":"watch"')) feed.watch = text;
    else if (text.startsWith('{"type":"git"')) feed.git = text;
    for (const page of feed.pages) {
      if (page.socket.isClosed) continue;
      if (isChange && (page.missed || page.socket.isFull)) {
        page.missed = true;
        continue;
      }
      page.socket.send(text);
    }
  }

  private sendInView(feed: SessionFeed): void {
    const upstream = feed.upstream;
    if (!upstream || upstream.isClosed) return;
    upstream.send(JSON.stringify(unionControl([...feed.pages].map((p) => p.inView))));
  }

  private detach(sessionId: string, feed: SessionFeed, page: Page): void {
    for (const registration of page.registrations) registration.dispose();
    if (!feed.pages.delete(page)) return;
    this.log.info('events_closed', { pages: feed.pages.size });
    if (feed.pages.size === 0) this.end(sessionId, feed, CloseCode.Normal);
    else this.sendInView(feed);
  }

  private end(sessionId: string, feed: SessionFeed, code: number): void {
    if (feed.ended) return;
    feed.ended = true;
    if (this.feeds.get(sessionId) === feed) this.feeds.delete(sessionId);
    const upstream = feed.upstream;
    feed.upstream = undefined;
    if (upstream && !upstream.isClosed) upstream.close(CloseCode.Normal);
    for (const page of [...feed.pages]) {
      for (const registration of page.registrations) registration.dispose();
      if (!page.socket.isClosed) page.socket.close(code);
    }
    feed.pages.clear();
  }
}
