import { isAbsolute, resolve } from 'node:path';

/** What agentctl needs from its environment (docs/internals.md, "How the backend starts agentctl"). */
export interface AgentctlConfig {
  token: string;
  /** Absolute, normalized workspace root as the backend named it (not its realpath). */
  workspacePath: string;
  repoSubpaths: string[];
  host: string;
  port: number;
}

export type ConfigResult = { ok: true; config: AgentctlConfig } | { ok: false; error: string };

function parseRepos(raw: string | undefined): string[] | string {
  if (raw === undefined || raw.trim() === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return 'AGENTCTL_REPOS is not JSON';
  }
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) return 'AGENTCTL_REPOS must be a JSON array of strings';
  const repos = value as string[];
  // Subpaths are relative to the workspace; an absolute one or an escape is a backend defect.
  if (repos.some((r) => isAbsolute(r) || r.split(/[\\/]/).includes('..'))) return 'AGENTCTL_REPOS entries must be relative subpaths';
  return repos;
}

/** Reads and validates the AGENTCTL_* variables. Never echoes the token in an error. */
export function readConfig(env: NodeJS.ProcessEnv): ConfigResult {
  const token = env.AGENTCTL_TOKEN ?? '';
  if (token.length === 0) return { ok: false, error: 'AGENTCTL_TOKEN is required' };
  const workspace = env.AGENTCTL_WORKSPACE ?? '';
  if (!isAbsolute(workspace)) return { ok: false, error: 'AGENTCTL_WORKSPACE must be an absolute path' };
  const repos = parseRepos(env.AGENTCTL_REPOS);
  if (typeof repos === 'string') return { ok: false, error: repos };
  const portText = env.AGENTCTL_PORT ?? '0';
  const port = Number(portText);
  if (!/^\d{1,5}$/.test(portText) || port > 65_535) return { ok: false, error: 'AGENTCTL_PORT must be a port number' };
  const host = env.AGENTCTL_HOST && env.AGENTCTL_HOST.length > 0 ? env.AGENTCTL_HOST : '127.0.0.1';
  return { ok: true, config: { token, workspacePath: resolve(workspace), repoSubpaths: repos, host, port } };
}
