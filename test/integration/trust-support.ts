import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Task } from '@kandev/protocol';
import type { RunningStack } from '../support/stack.js';
import { LeaseClient } from './lease-support.js';

type Frame = Record<string, any>;

/**
 * Hostile repositories for the workspace-trust tests (docs/workspace-trust.md): each plants a
 * program that the repository controls and that writes a marker file when something executes it.
 * The marker lives OUTSIDE the workspace, so the files API and the servers never see it.
 */
export interface HostileWorkspace {
  dir: string;
  marker: string;
  /** What executed the planted program, one line per run (empty when nothing ran). */
  runs(): string[];
}

export function hostileWorkspace(name: string, files: Record<string, string>): HostileWorkspace {
  const root = mkdtempSync(join(tmpdir(), `kandev-trust-${name}-`));
  const dir = join(root, 'repo');
  const marker = join(root, 'marker.log');
  for (const [path, text] of Object.entries(files)) {
    const full = join(dir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text.replaceAll('@MARKER@', marker));
  }
  mkdirSync(dir, { recursive: true });
  return { dir, marker, runs: () => (existsSync(marker) ? readFileSync(marker, 'utf8').split('\n').filter(Boolean) : []) };
}

/** A POSIX sh program that records its run, then execs the real tool (so the server still works). */
export function recordingShim(realTool: string, label: string): string {
  return `#!/bin/sh\necho "${label} $*" >> '@MARKER@'\nexec '${realTool}' "$@"\n`;
}

export function makeExecutable(ws: HostileWorkspace, ...paths: string[]): void {
  for (const path of paths) chmodSync(join(ws.dir, path), 0o755);
}

export async function setTrust(stack: RunningStack, taskId: string, trusted: boolean): Promise<Task> {
  return stack.api<Task>(`/api/tasks/${taskId}`, { method: 'PATCH', body: { trustWorkspaceTools: trusted } });
}

/** The first `textDocument/publishDiagnostics` for `uri` with at least one diagnostic. */
export function diagnosticsOf(client: LeaseClient, uri: string): Promise<Frame> {
  return client.waitFor((f) => f.method === 'textDocument/publishDiagnostics' && f.params.uri === uri && f.params.diagnostics.length > 0);
}

/** Hover until the server has analysed the file (servers answer null while they load). */
export async function hoverText(client: LeaseClient, uri: string, line: number, character: number): Promise<string> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const hover = await client.request('textDocument/hover', { textDocument: { uri }, position: { line, character } });
    if (hover.result) return JSON.stringify(hover.result.contents);
    await new Promise((r) => setTimeout(r, 200));
  }
  return '';
}

/** Opens a fresh lease, initializes it (with `initializationOptions` a browser might send) and opens one file. */
export async function openFile(
  stack: Pick<RunningStack, 'url'>,
  sessionId: string,
  language: string,
  file: { path: string; languageId: string; text: string },
  initializationOptions: unknown = {},
  hint?: string,
): Promise<{ client: LeaseClient; uri: string; ready: Frame; init: Frame }> {
  const client = new LeaseClient(stack.url, sessionId, language, hint);
  const ready = await client.waitFor((f) => f.status === 'ready');
  const init = await client.request('initialize', {
    processId: null,
    rootUri: ready.workspaceUri,
    workspaceFolders: [{ uri: ready.workspaceUri, name: 'w' }],
    capabilities: {
      workspace: { configuration: true, workspaceFolders: true },
      textDocument: { hover: { contentFormat: ['markdown', 'plaintext'] }, publishDiagnostics: {} },
    },
    initializationOptions,
  });
  client.notify('initialized', {});
  const uri = `${ready.workspaceUri}/${file.path}`;
  client.notify('textDocument/didOpen', { textDocument: { uri, languageId: file.languageId, version: 1, text: file.text } });
  return { client, uri, ready, init };
}

/**
 * The environments of the running language servers `binaryName` whose environment carries
 * `tag=value` (a variable the test put in the task env, so it finds this task's server only).
 */
export function serverEnvironments(binaryName: string, tag: string, value: string): Array<{ pid: number; env: Record<string, string> }> {
  const found: Array<{ pid: number; env: Record<string, string> }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (!argv.some((arg) => arg.endsWith(binaryName))) continue;
      // An untrusted server runs under bubblewrap (no network): the wrapper names the server too.
      if (argv[0]?.endsWith('bwrap')) continue;
      const env: Record<string, string> = {};
      for (const pair of readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0')) {
        const eq = pair.indexOf('=');
        if (eq > 0) env[pair.slice(0, eq)] = pair.slice(eq + 1);
      }
      if (env[tag] === value) found.push({ pid: Number(entry), env });
    } catch {
      // The process ended while being read.
    }
  }
  return found;
}
