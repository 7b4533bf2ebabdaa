/**
 * What lets language servers outlive a backend restart (docs/restarts.md): the task host keeps a
 * stream's server running while no backend holds the stream (it is *parked*), tells the next
 * backend which streams it has (their account), and hands a parked stream to whoever resumes it
 * with the task host's token. A task host that no backend links to for its grace period ends
 * itself and reaps every tree.
 */
import type { LanguageId } from './languages.js';

export const TASK_HOST_RESTART_PATHS = {
  /** GET: the live LSP streams of this task host, as `LiveStreamsReply`. */
  streams: '/api/v1/lsp/streams',
  /** WebSocket upgrade: the backend's link. While none is open, the task host's grace period runs. */
  link: '/api/v1/host/link',
} as const;

/** The query parameter that resumes a live stream instead of launching a server: `?resume=<stream>`. */
export const RESUME_STREAM_PARAM = 'resume';

/** A document the server has open on a stream, with the last version it was sent. */
export interface StreamDocument {
  uri: string;
  version: number;
}

/** agentctl's account of one live stream: enough for a new backend to rebuild its lease. */
export interface LiveStreamAccount {
  /** The stream's id on this task host (also in its `ready` frame). */
  stream: number;
  language: LanguageId;
  trustWorkspaceTools: boolean;
  /** No backend holds the stream: its server's output waits (backpressure) for one to resume it. */
  parked: boolean;
  /** Documents open on the server, with the last version each was sent. */
  documents: StreamDocument[];
  /** The highest numeric request id a backend sent the server: a new backend starts above it. */
  maxRequestId: number;
  /** The server process (its tree's root), for diagnostics and tests. */
  pid?: number;
}

export interface LiveStreamsReply {
  streams: LiveStreamAccount[];
}

/** The resume path of a stream: `/api/v1/lsp/stream?resume=<stream>`. */
export function resumeStreamPath(lspStreamPath: string, stream: number): string {
  return `${lspStreamPath}?${RESUME_STREAM_PARAM}=${stream}`;
}

/** The task host's grace period when nobody says otherwise: long enough for `npm start` again. */
export const DEFAULT_RESTART_GRACE_MS = 120_000;
