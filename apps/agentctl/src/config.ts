import { isAbsolute, resolve } from 'node:path';
import { AGENTCTL_ENV } from '@kandev/protocol';
import type { Result } from './base/result.js';

/** What agentctl needs from its environment (docs/internals.md, "How the backend starts agentctl"). */
export interface AgentctlConfig {
  token: string;
  /** Absolute, normalized workspace root as the backend named it (not its realpath). */
  workspacePath: string;
  repoSubpaths: string[];
  host: string;
  port: number;
}

export type ConfigResult = Result<AgentctlConfig>;

function parseRepos(raw: string | undefined): string[] | string {
  if (raw === undefined || raw.trim() === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return `${AGENTCTL_ENV.repos} is not JSON`;
  }
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) return `${AGENTCTL_ENV.repos} must be a JSON array of strings`;
  const repos = value as string[];
  // Subpaths are relative to the workspace; an absolute one or an escape is a backend defect.
  if (repos.some((r) => isAbsolute(r) || r.split(/[\\/]/).includes('..'))) return `${AGENTCTL_ENV.repos} entries must be relative subpaths`;
  return repos;
}

/** Reads and validates the AGENTCTL_* variables. Never echoes the token in an error. */
export function readConfig(env: NodeJS.ProcessEnv): ConfigResult {
  const token = env[AGENTCTL_ENV.token] ?? '';
  if (token.length === 0) return { ok: false, error: `${AGENTCTL_ENV.token} is required` };
  const workspace = env[AGENTCTL_ENV.workspace] ?? '';
  if (!isAbsolute(workspace)) return { ok: false, error: `${AGENTCTL_ENV.workspace} must be an absolute path` };
  const repos = parseRepos(env[AGENTCTL_ENV.repos]);
  if (typeof repos === 'string') return { ok: false, error: repos };
  const portText = env[AGENTCTL_ENV.port] ?? '0';
  const port = Number(portText);
  if (!/^\d{1,5}$/.test(portText) || port > 65_535) return { ok: false, error: `${AGENTCTL_ENV.port} must be a port number` };
  const hostText = env[AGENTCTL_ENV.host];
  const host = hostText !== undefined && hostText.length > 0 ? hostText : '127.0.0.1';
  return { ok: true, value: { token, workspacePath: resolve(workspace), repoSubpaths: repos, host, port } };
}
