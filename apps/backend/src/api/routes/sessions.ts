import type { IncomingMessage } from 'node:http';
import {
  API_ROUTES,
  FILE_BYTES_CONTENT_TYPE,
  MAX_JSON_SAVE_BODY_BYTES,
  MAX_SAVE_BYTES,
  MAX_WRITE_BODY_BYTES,
  parseApplyFilesRequest,
  SAVE_IDLE_TIMEOUT_MS,
  SEARCH_QUERY_PARAMS,
  SESSION_GIT_HEAD_ROUTE,
  taskHostFilesPath,
  type WriteFileRequest,
} from '@kandev/protocol';
import type { Router } from '../router.js';
import { errorOf, errorReply, readJsonBody, type Reply } from '../http.js';
import type { ApiDeps } from './deps.js';
import { AgentctlClient } from '../../taskhost/agentctlClient.js';
import { apiError } from '../../base/result.js';
import { fileBytesContentType } from '../../security/contentType.js';
import { streamedBody } from '@kandev/node-transport';

/**
 * Sessions and their files. The files endpoints forward to the session's agentctl unchanged
 * (docs/internals.md): agentctl alone confines paths to the workspace, so a path is never
 * interpreted here, only passed on with the session's token.
 */
export function addSessionRoutes(router: Router, deps: ApiDeps): void {
  router.get(API_ROUTES.session, ({ params }) => {
    const session = deps.sessions.get(params.id as string);
    return session ? { status: 200, json: session } : errorOf('not_found', 'no such session');
  });

  // An agent token for an MCP client started outside the task (`npm run mcp -- config`), good for
  // this session's MCP endpoint only and revoked when the session ends (docs/agents.md).
  router.post(API_ROUTES.sessionMcpConfig, ({ params }) => {
    const session = deps.sessions.get(params.id as string);
    if (!session) return errorOf('not_found', 'no such session');
    if (!deps.mcpConfig || deps.sessions.liveHost(session.id) === undefined) return errorOf('session_not_running', `the session is ${session.status}`);
    return { status: 200, json: deps.mcpConfig(session.id) };
  });

  // What the session's agents hold, for the person's status details (agent leases apart from theirs).
  router.get(API_ROUTES.sessionAgentLeases, ({ params }) => {
    const session = deps.sessions.get(params.id as string);
    if (!session) return errorOf('not_found', 'no such session');
    return { status: 200, json: deps.agentLeases?.(session.id) ?? { leases: [], idleReleaseMs: 0 } };
  });

  router.post(API_ROUTES.sessionStop, async ({ params }) => {
    const stopped = await deps.sessions.stop(params.id as string);
    return stopped.ok ? { status: 200, json: stopped.value } : errorReply(stopped.error);
  });

  router.get(API_ROUTES.sessionFiles, ({ params, url }) => forward(deps, params.id as string, 'GET', taskHostFilesPath('files', url.search)));
  // A file may be large (up to MAX_OPEN_FILE_BYTES): passed on as agentctl streams it, never held whole here.
  router.get(API_ROUTES.sessionFile, ({ params, url }) => forwardStream(deps, params.id as string, taskHostFilesPath('file', url.search)));
  router.get(API_ROUTES.sessionSearch, ({ params, url }) =>
    url.searchParams.get(SEARCH_QUERY_PARAMS.stream) === '1'
      ? forwardStream(deps, params.id as string, taskHostFilesPath('search', url.search))
      : forward(deps, params.id as string, 'GET', taskHostFilesPath('search', url.search)),
  );

  // A file's text at HEAD for the diff editor; agentctl confines the path like every files route.
  router.get(SESSION_GIT_HEAD_ROUTE, ({ params, url }) => forward(deps, params.id as string, 'GET', taskHostFilesPath('gitHead', url.search)));

  // A save: the file's raw bytes streamed through to agentctl (forwardSave), or the older small
  // JSON form `{"content","baseVersion"}`, checked and passed on whole.
  router.put(
    API_ROUTES.sessionFile,
    async ({ params, url, req }) => {
      if (fileBytesContentType(req)) return forwardSave(deps, params.id as string, taskHostFilesPath('file', url.search), req);
      const body = await readJsonBody(req, MAX_JSON_SAVE_BODY_BYTES);
      if (!body.ok) return body.error.code === 'too_large' ? tooLarge(MAX_JSON_SAVE_BODY_BYTES) : errorReply(body.error);
      const value = body.value.value as { [K in keyof WriteFileRequest]?: unknown } | null;
      if (typeof value !== 'object' || value === null || typeof value.content !== 'string') {
        return errorOf('bad_request', 'the body must be {"content": string, "baseVersion"?: string}');
      }
      if (value.baseVersion !== undefined && typeof value.baseVersion !== 'string') return errorOf('bad_request', 'baseVersion must be a string');
      return forward(deps, params.id as string, 'PUT', taskHostFilesPath('file', url.search), body.value.text);
    },
    { acceptsBytes: true },
  );

  // A language server's WorkspaceEdit on files that are not open: agentctl checks every version
  // and confines every path before writing any (docs/editing.md).
  router.post(API_ROUTES.sessionFilesApply, async ({ params, req }) => {
    const body = await readJsonBody(req, MAX_WRITE_BODY_BYTES);
    if (!body.ok) return errorReply(body.error);
    // The protocol's one schema (agentctl checks it again): a bad batch never reaches the task host.
    const request = parseApplyFilesRequest(body.value.value);
    if (!request.ok) return errorOf('bad_request', request.error.message);
    return forward(deps, params.id as string, 'POST', taskHostFilesPath('filesApply', ''), body.value.text);
  });
}

async function forward(deps: ApiDeps, sessionId: string, method: string, agentPath: string, body?: string): Promise<Reply> {
  const session = deps.sessions.get(sessionId);
  if (!session) return errorOf('not_found', 'no such session');
  const host = deps.sessions.liveHost(sessionId);
  if (!host) return errorOf('session_not_running', `the session is ${session.status}`);
  deps.taskHostUsed?.(sessionId);
  const response = await new AgentctlClient(host.endpoint).forward(method, agentPath, body);
  if (!response.ok) {
    deps.log.warn('request_failed', { sessionId, reason: 'task_host_unreachable', detail: response.error });
    return errorOf('task_host_unavailable', 'the task host did not answer');
  }
  // A 401 from agentctl means our token is wrong: the browser's request was fine, the host is not.
  if (response.value.status === 401) return errorOf('task_host_unavailable', 'the task host refused the session credentials');
  return { status: response.value.status, contentType: response.value.contentType, body: response.value.body };
}

function tooLarge(limit: number): Reply {
  return errorReply(apiError('too_large', `the content is larger than ${limit} bytes`), { limit });
}

/**
 * A save of up to MAX_SAVE_BYTES, passed on to agentctl chunk by chunk as it arrives (never held
 * whole here). The bytes are counted as they pass: a declared length over the limit is refused
 * before reading, and a body that passes it is broken off towards agentctl (which drops what it
 * staged) and refused with 413 and the limit. The deadline is inactivity, restarted by each chunk.
 */
async function forwardSave(deps: ApiDeps, sessionId: string, agentPath: string, req: IncomingMessage): Promise<Reply> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_SAVE_BYTES) {
    req.resume();
    return tooLarge(MAX_SAVE_BYTES);
  }
  const session = deps.sessions.get(sessionId);
  if (!session) return errorOf('not_found', 'no such session');
  const host = deps.sessions.liveHost(sessionId);
  if (!host) return errorOf('session_not_running', `the session is ${session.status}`);
  deps.taskHostUsed?.(sessionId);
  // The request stays readable when the upload stops early, so the rest can be drained and answered;
  // a browser that hangs up mid-body ends the upload to agentctl at once.
  const streamed = streamedBody(req);
  const uploaded = await new AgentctlClient(host.endpoint).upload('PUT', agentPath, streamed.body, {
    contentType: FILE_BYTES_CONTENT_TYPE,
    limit: MAX_SAVE_BYTES,
    idleTimeoutMs: SAVE_IDLE_TIMEOUT_MS,
    complete: () => req.complete,
    cutOff: streamed.cutOff,
  });
  streamed.dispose();
  if (!uploaded.ok) {
    deps.log.warn('request_failed', { sessionId, reason: 'task_host_unreachable', detail: uploaded.error });
    return errorOf('task_host_unavailable', 'the task host did not answer');
  }
  const outcome = uploaded.value;
  if (outcome.kind === 'too_large') {
    req.resume();
    return tooLarge(outcome.limit);
  }
  // The browser went away mid-body: nobody reads this answer, and agentctl kept nothing.
  if (outcome.kind === 'cut_off') return errorOf('bad_request', 'the request body was cut off');
  if (outcome.response.status === 401) return errorOf('task_host_unavailable', 'the task host refused the session credentials');
  return { status: outcome.response.status, contentType: outcome.response.contentType, body: outcome.response.body };
}

/**
 * A streamed search: agentctl's NDJSON lines reach the browser as they are written, and a browser
 * that aborts (the query changed) aborts the request to agentctl, which stops the search there.
 */
async function forwardStream(deps: ApiDeps, sessionId: string, agentPath: string): Promise<Reply> {
  const session = deps.sessions.get(sessionId);
  if (!session) return errorOf('not_found', 'no such session');
  const host = deps.sessions.liveHost(sessionId);
  if (!host) return errorOf('session_not_running', `the session is ${session.status}`);
  deps.taskHostUsed?.(sessionId);
  const response = await new AgentctlClient(host.endpoint).open(agentPath);
  if (!response.ok) {
    deps.log.warn('request_failed', { sessionId, reason: 'task_host_unreachable', detail: response.error });
    return errorOf('task_host_unavailable', 'the task host did not answer');
  }
  const { status, contentType, body, abort } = response.value;
  if (status === 401) {
    abort();
    return errorOf('task_host_unavailable', 'the task host refused the session credentials');
  }
  return { status, contentType, stream: body, cancel: abort };
}
