import type { LanguageId } from './languages.js';
import type { InstallStrategy } from './languages/descriptor.js';

/** HTTP API shapes of the backend (docs/architecture.md section 9) and the task-host files API behind it. */
export const EXECUTOR_KINDS = ['local_pc', 'local_docker', 'remote_docker', 'ssh', 'sprites'] as const;
export type ExecutorKind = (typeof EXECUTOR_KINDS)[number];
export const SUPPORTED_EXECUTORS: readonly ExecutorKind[] = ['local_pc', 'local_docker'];

export interface Repository {
  path: string;
}

export interface Task {
  id: string;
  title: string;
  executor: ExecutorKind;
  repositories: Repository[];
  env: Record<string, string>;
  createdAt: string;
  /**
   * Whether language servers may run code the workspace controls (its own TypeScript, interpreters
   * on a PATH inside it, toolchain switches, build scripts). Off by default; see docs/workspace-trust.md.
   */
  trustWorkspaceTools: boolean;
}

/** Query parameter of agentctl's LSP stream: `true` when the task trusts its workspace's tools. */
export const TRUST_WORKSPACE_TOOLS_PARAM = 'trustWorkspaceTools';

/** `PATCH /api/tasks/:id`: the fields a person may change on an existing task (at least one). */
export interface TaskPatch {
  title?: string;
  trustWorkspaceTools?: boolean;
}

export type SessionStatus = 'starting' | 'running' | 'stopped' | 'failed';

export interface Session {
  id: string;
  taskId: string;
  status: SessionStatus;
  createdAt: string;
  /** Set while running: what the task host reports about its workspace. */
  workspacePath?: string;
  error?: string;
}

export type FileEntryType = 'file' | 'directory';
export interface FileEntry {
  name: string;
  path: string;
  type: FileEntryType;
}
export interface ListFilesResponse {
  entries: FileEntry[];
}
export interface ReadFileResponse {
  content: string;
  version: string;
}
export interface WriteFileRequest {
  content: string;
  baseVersion?: string;
}
/**
 * A save's body is the file's raw bytes with this content type; the version the client read goes in
 * the WRITE_BASE_VERSION_PARAM query parameter (absent: write whatever is on disk; empty: the file
 * must not exist).
 */
export const FILE_BYTES_CONTENT_TYPE = 'application/octet-stream';
export const WRITE_BASE_VERSION_PARAM = 'baseVersion';
/** 413 `too_large` of a read or a save: the limit in bytes (and, for a read, the file's size). */
export interface TooLargeResponse {
  error: ApiError;
  limit: number;
  size?: number;
}
export interface WriteFileResponse {
  version: string;
}
export interface WriteConflictResponse {
  error: ApiError;
  currentVersion: string;
}
export type { ApplyFilesRequest, FileOperation } from './fileOperations.js';
/** Versions of every file a write or create left behind, by path. */
export interface ApplyFilesResponse {
  versions: Record<string, string>;
}
/** 409: nothing was written; why each refused operation was refused. */
export interface ApplyConflict {
  path: string;
  reason: 'changed' | 'exists' | 'missing';
  currentVersion?: string;
}
export interface ApplyConflictResponse {
  error: ApiError;
  conflicts: ApplyConflict[];
}
export interface SearchHit {
  path: string;
  line: number;
  column: number;
  preview: string;
}
export interface SearchResponse {
  hits: SearchHit[];
  truncated?: boolean;
}

export const API_ERROR_CODES = [
  'bad_request',
  'not_found',
  'path_outside_workspace',
  'conflict',
  'too_large',
  'unauthorized',
  'forbidden',
  'session_not_running',
  'executor_unsupported',
  'task_host_unavailable',
  'internal',
  'unsupported_media_type',
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];
export interface ApiError {
  code: ApiErrorCode;
  message: string;
}

/** Catalog card data for the Editors settings (docs/architecture.md section 6). */
export interface LanguageCatalogEntry {
  id: LanguageId;
  name: string;
  extensions: string[];
  /** Well-known file names served whatever their extension (`Dockerfile`, `.bashrc`). */
  fileNames?: string[];
  binary: string;
  args: string[];
  installStrategy: InstallStrategy;
  installCommand?: string;
  prerequisites: string[];
  managedDestination?: string;
  autoInstallable: boolean;
  experimental?: boolean;
}

/**
 * Why a task body was refused, sent next to the error (`{"error", "invalid": {field, reason, index?}}`)
 * so the browser shows localized copy at the right field instead of the backend's message.
 */
export const TASK_INVALID_REASONS = [
  'body',
  'title_empty',
  'title_too_long',
  'executor_unknown',
  'repositories_count',
  'path_empty',
  'path_not_absolute',
  'path_missing',
  'path_not_directory',
  'path_duplicate',
  'paths_nested',
  'env_invalid',
  'trust_invalid',
  'nothing_to_change',
] as const;
export type TaskInvalidReason = (typeof TASK_INVALID_REASONS)[number];
export interface TaskInvalid {
  field: 'body' | 'title' | 'executor' | 'repositories' | 'env' | 'trustWorkspaceTools';
  reason: TaskInvalidReason;
  index?: number;
}
