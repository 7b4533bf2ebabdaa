import { deadline, systemClock } from '@kandev/kit';
import {
  CloseCode,
  LSP_MAX_BODY_BYTES,
  RESUME_STREAM_PARAM,
  TASK_HOST_PATHS,
  TASK_HOST_RESTART_PATHS,
  WORKSPACE_EVENTS_MAX_CHANGES,
  WORKSPACE_EVENTS_WINDOW_MS,
  pathToFileUri,
  type LiveStreamsReply,
  type WorkspaceIdentity,
} from '@kandev/protocol';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { DEFAULT_KEEPALIVE, FrameSocket, refuseUpgrade } from '@kandev/node-transport';
import { WebSocketServer } from 'ws';
import { handleFilesRoute } from './files/routes.js';
import { chooseSearchEngine } from './files/search.js';
import { Workspace } from './files/workspace.js';
import { createBearerCheck } from './http/auth.js';
import { sendError, sendJson } from './http/respond.js';
import { errorFields } from './base/log.js';
import { LspStream, type StreamHost } from './stream/lspStream.js';
import { parseStreamParams } from './stream/params.js';
import { StreamTable } from './stream/streamTable.js';
import type { BackendLinks } from './host/backendLinks.js';
import { childEnv } from './env/taskEnv.js';
import { WorkspaceEventsFeed } from './events/eventsFeed.js';
import { readGitState } from './git/gitState.js';
import { GitStateTracker } from './git/gitStateTracker.js';
import { readHeadFile } from './git/headFile.js';
import { parcelWatcher, type NativeWatcher } from './watch/nativeWatcher.js';
import { WorkspaceWatcher } from './watch/workspaceWatcher.js';

/** While the OS cannot watch: how often the paths in view are looked at. */
const POLL_INTERVAL_MS = 1_000;
/** Git state is read this long after changes settle, and at least this often while a page listens. */
const GIT_DEBOUNCE_MS = 300;
const GIT_PERIOD_MS = 10_000;
/** A page's controls (`in_view`, at most 500 paths of each kind) fit well within this. */
const EVENTS_MAX_PAYLOAD_BYTES = 256 * 1024;

const CLOSE_HANDSHAKE_WAIT_MS = 2_000;

/** The streams' host settings (the task env, platform, installer, ...) plus what the server itself needs. */
export interface AgentctlServerOptions extends Omit<StreamHost, 'workspace' | 'workspaceReal' | 'watcher'> {
  token: string;
  workspacePath: string;
  repoSubpaths: string[];
  /** The backends' links (absent: the link route answers 404 and nothing waits for a backend). */
  links?: BackendLinks;
  /** The OS's file notifications; default @parcel/watcher (tests inject their own). */
  nativeWatcher?: NativeWatcher;
}

export interface AgentctlServer {
  http: Server;
  streams: StreamTable;
  watcher: WorkspaceWatcher;
  events: WorkspaceEventsFeed;
  listen(host: string, port: number): Promise<number>;
  /** Closes every stream with 1001, reaps every tree, stops listening. */
  shutdown(): Promise<void>;
}

/** The HTTP server: bearer auth on everything, the files API, and the LSP stream upgrade. */
export async function createAgentctlServer(options: AgentctlServerOptions): Promise<AgentctlServer> {
  const { token, workspacePath, repoSubpaths, links, nativeWatcher, ...streamHost } = options;
  const workspace = await Workspace.open(workspacePath);
  const clock = streamHost.timings.clock ?? systemClock;
  const gitEnv = childEnv(streamHost.env, {}, streamHost.platform);
  // One watcher for the workspace, shared by the servers (their registered watchers) and pages.
  const watcher = new WorkspaceWatcher({
    root: workspace.real,
    repoRoots: repoSubpaths.length > 0 ? repoSubpaths : [''],
    native: nativeWatcher ?? parcelWatcher,
    clock,
    pollIntervalMs: POLL_INTERVAL_MS,
    logger: options.logger,
  });
  await watcher.start();
  const git = new GitStateTracker({
    clock,
    debounceMs: GIT_DEBOUNCE_MS,
    periodMs: GIT_PERIOD_MS,
    read: () => readGitState(workspace.real, repoSubpaths, gitEnv),
    onReadError: (err) => options.logger.log('warn', 'git_state_failed', errorFields(err)),
  });
  const events = new WorkspaceEventsFeed({
    root: workspace.real,
    watcher,
    git,
    clock,
    windowMs: WORKSPACE_EVENTS_WINDOW_MS,
    maxChanges: WORKSPACE_EVENTS_MAX_CHANGES,
    logger: options.logger,
  });
  const identity: WorkspaceIdentity = { workspacePath, workspaceUri: pathToFileUri(workspacePath), repoSubpaths };
  const authorized = createBearerCheck(token);
  const logger = options.logger;
  const streams = new StreamTable();
  // Looked up once: the task environment (and so its PATH) is fixed for this agentctl's life.
  const searchEngine = chooseSearchEngine(streamHost.env);
  logger.log('info', 'search_engine', { engine: searchEngine.ripgrep ? 'ripgrep' : 'walker' });
  let nextStreamId = 1;
  let stopping = false;
  // No compression (no inflate bombs); frames above the LSP body bound are refused with 1009.
  const wss = new WebSocketServer({ noServer: true, maxPayload: LSP_MAX_BODY_BYTES, perMessageDeflate: false });
  const eventsWss = new WebSocketServer({ noServer: true, maxPayload: EVENTS_MAX_PAYLOAD_BYTES, perMessageDeflate: false });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!authorized(req)) {
      logger.log('warn', 'auth_refused', { method: req.method });
      sendError(res, 401, 'unauthorized', 'a valid bearer token is required');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://agentctl');
    if (url.pathname === TASK_HOST_PATHS.health && req.method === 'GET') {
      sendJson(res, 200, { ok: true, ...identity, platform: options.platform });
      return;
    }
    if (url.pathname === TASK_HOST_RESTART_PATHS.streams && req.method === 'GET') {
      const reply: LiveStreamsReply = { streams: streams.accounts() };
      sendJson(res, 200, reply);
      return;
    }
    if (url.pathname === TASK_HOST_PATHS.gitHead && req.method === 'GET') {
      const path = url.searchParams.get('path');
      if (path === null || path === '') return sendError(res, 400, 'bad_request', 'path is required');
      const head = await readHeadFile(workspace.real, repoSubpaths, path, gitEnv);
      if (head.ok) return sendJson(res, 200, head.value);
      if (head.error.code === 'path_outside_workspace') logger.log('warn', 'path_refused', { route: 'git_head' });
      return sendError(res, head.error.status, head.error.code, head.error.message);
    }
    if (await handleFilesRoute(workspace, req, res, url, logger, searchEngine)) return;
    sendError(res, 404, 'not_found', 'no such route');
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((err) => {
      logger.log('error', 'http_request_failed', { path: new URL(req.url ?? '/', 'http://agentctl').pathname, ...errorFields(err) });
      if (!res.headersSent) sendError(res, 500, 'internal', 'internal error');
      else res.destroy();
    });
  });

  http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => {});
    if (!authorized(req)) {
      logger.log('warn', 'auth_refused', { method: 'UPGRADE' });
      refuseUpgrade(socket, 401, 'unauthorized', 'Unauthorized');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://agentctl');
    if (url.pathname === TASK_HOST_RESTART_PATHS.link && links && !stopping) {
      wss.handleUpgrade(req, socket, head, (ws) => links.accept(ws));
      return;
    }
    if (url.pathname === TASK_HOST_PATHS.workspaceEvents && !stopping) {
      eventsWss.handleUpgrade(req, socket, head, (ws) => {
        const frames = new FrameSocket(ws, {
          writeDeadlineMs: streamHost.timings.wsWriteDeadlineMs,
          keepalive: streamHost.timings.keepalive ?? DEFAULT_KEEPALIVE,
          clock,
        });
        logger.log('info', 'events_open', { listeners: events.size + 1 });
        frames.onClose((code) => logger.log('info', 'events_closed', { code }));
        events.attach(frames);
      });
      return;
    }
    if (url.pathname !== TASK_HOST_PATHS.lspStream) {
      refuseUpgrade(socket, 404, 'not_found', 'Not Found');
      return;
    }
    if (stopping) {
      refuseUpgrade(socket, 503, 'task_host_unavailable', 'Service Unavailable');
      return;
    }
    const resume = url.searchParams.get(RESUME_STREAM_PARAM);
    if (resume !== null) {
      wss.handleUpgrade(req, socket, head, (ws) => {
        const stream = /^\d{1,9}$/.test(resume) ? streams.get(Number(resume)) : undefined;
        if (stream?.resume(ws)) return;
        // Its server exited meanwhile (or there never was one): the lease cannot go on.
        logger.log('warn', 'stream_resume_refused', { stream: resume.slice(0, 16) });
        ws.close(CloseCode.ServerExited);
      });
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      // Unknown language and bad parameters are answered on the accepted socket (close 4002).
      const stream = new LspStream(
        ws,
        parseStreamParams(url.searchParams),
        { ...streamHost, workspace: identity, workspaceReal: workspace.real, watcher },
        nextStreamId++,
      );
      streams.add(stream);
      void stream.start();
    });
  });
  http.on('clientError', (_err, socket) => socket.destroy());

  return {
    http,
    streams,
    watcher,
    events,
    listen(host, port) {
      return new Promise((resolve, reject) => {
        http.once('error', reject);
        http.listen(port, host, () => {
          http.off('error', reject);
          const address = http.address();
          resolve(typeof address === 'object' && address !== null ? address.port : port);
        });
      });
    },
    async shutdown() {
      stopping = true;
      links?.closeAll();
      http.close();
      events.dispose();
      git.dispose();
      await watcher.close();
      await streams.shutdownAll();
      // Give the 1001 close frames a moment to flush and be answered before dropping sockets.
      const handshakes = deadline(streamHost.timings.clock ?? systemClock, CLOSE_HANDSHAKE_WAIT_MS);
      await Promise.race([
        Promise.all([...wss.clients].map((c) => new Promise<void>((resolve) => (c.readyState === c.CLOSED ? resolve() : c.once('close', () => resolve()))))),
        handshakes.reached,
      ]);
      handshakes.dispose();
      for (const client of wss.clients) client.terminate();
      for (const client of eventsWss.clients) client.terminate();
      http.closeAllConnections();
    },
  };
}
