import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_WRITE_BODY_BYTES, parseApplyFilesRequest, TASK_HOST_PATHS } from '@kandev/protocol';
import { readBoundedBody } from '@kandev/node-transport';
import { sendError, sendJson } from '../http/respond.js';
import type { Logger } from '../base/log.js';
import { applyFileOperations } from './apply.js';
import { listFiles } from './list.js';
import { streamWorkspaceFile } from './readStream.js';
import type { FilesResult } from '../base/filesResult.js';
import type { SearchEngineChoice } from './search.js';
import { handleSearch } from './searchRoute.js';
import { handleWrite } from './writeRoute.js';
import type { Workspace } from './workspace.js';

function answer<T>(res: ServerResponse, result: FilesResult<T>, logger: Logger, route: string): void {
  if (result.ok) {
    sendJson(res, 200, result.value);
    return;
  }
  if (result.error.code === 'path_outside_workspace') logger.log('warn', 'path_refused', { route });
  sendError(res, result.error.status, result.error.code, result.error.message);
}

/** The files API of docs/internals.md. Returns false when the path is not one of its routes. */
export async function handleFilesRoute(
  workspace: Workspace,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  logger: Logger,
  searchEngine: SearchEngineChoice = { ripgrep: undefined },
): Promise<boolean> {
  const path = url.searchParams.get('path');
  switch (url.pathname) {
    case TASK_HOST_PATHS.files:
      if (req.method !== 'GET') break;
      answer(res, await listFiles(workspace, path ?? ''), logger, 'files');
      return true;
    case TASK_HOST_PATHS.file:
      if (path === null || path === '') {
        sendError(res, 400, 'bad_request', 'path is required');
        return true;
      }
      if (req.method === 'GET') {
        await streamWorkspaceFile(workspace, path, res);
        return true;
      }
      if (req.method === 'PUT') {
        await handleWrite(workspace, path, req, res, url, logger);
        return true;
      }
      break;
    case TASK_HOST_PATHS.filesApply: {
      if (req.method !== 'POST') break;
      const body = await readBoundedBody(req, MAX_WRITE_BODY_BYTES);
      if (!body.ok) {
        if (body.reason === 'too_large') sendError(res, 413, 'too_large', 'request body is too large');
        else res.destroy();
        return true;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(body.text);
      } catch {
        parsed = undefined;
      }
      // The protocol's schema, as the backend checked it: the first wrong member refuses the batch whole.
      const request = parseApplyFilesRequest(parsed);
      if (!request.ok) {
        sendError(res, 400, 'bad_request', request.error.message);
        return true;
      }
      const outcome = await applyFileOperations(workspace, request.value.operations);
      if (!outcome.ok && 'conflicts' in outcome) sendError(res, 409, 'conflict', outcome.error.message, { conflicts: outcome.conflicts });
      else answer(res, outcome, logger, 'files/apply');
      return true;
    }
    case TASK_HOST_PATHS.search:
      if (req.method !== 'GET') break;
      await handleSearch(workspace, searchEngine, req, res, url, logger);
      return true;
    default:
      return false;
  }
  res.setHeader('allow', url.pathname === TASK_HOST_PATHS.file ? 'GET, PUT' : url.pathname === TASK_HOST_PATHS.filesApply ? 'POST' : 'GET');
  sendError(res, 405 as number, 'bad_request', 'method not allowed');
  return true;
}
