import { randomUUID } from 'node:crypto';
import type { TaskEnv } from '../resolve/flavour.js';

/**
 * Every process a language server starts inherits this variable; reaping finds descendants that
 * left the process group and were re-parented (setsid + parent exit) by it in /proc/<pid>/environ.
 */
export const TREE_MARKER_VARIABLE = 'KANDEV_LSP_PROCESS_TREE';

export function newTreeMarker(): string {
  return randomUUID();
}

/** The task env without agentctl's own AGENTCTL_* variables (the token above all). */
export function withoutAgentctlVariables(env: TaskEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value === undefined || key.toUpperCase().startsWith('AGENTCTL_')) continue;
    out[key] = value;
  }
  return out;
}

/** The env a language server runs with: the task env minus AGENTCTL_*, plus the tree marker. */
export function serverEnv(env: TaskEnv, marker: string): Record<string, string> {
  return { ...withoutAgentctlVariables(env), [TREE_MARKER_VARIABLE]: marker };
}
