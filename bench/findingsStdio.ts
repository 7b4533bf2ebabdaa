/**
 * The findings bench's reference: the same language server alone over stdio, from spawn to its
 * first diagnostic for the demo file (pushed, or pulled where the server only answers pulls).
 */
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import {
  documentLanguageId,
  effectiveServerConfig,
  isRecord,
  languageDescriptor,
  MANAGED_ROOT_SEGMENTS,
  NPM_BIN_SEGMENTS,
  pathToFileUri,
  withInitializationOptions,
  type LanguageId,
} from '@kandev/protocol';
import { findLauncherPaths } from '../apps/agentctl/src/stream/launcherPaths.js';
import { repoRoot } from '../test/support/build.js';
import { StdioLspClient } from '../test/support/stdioClient.js';

/**
 * The server's binary as the product launched it: installed into the task HOME (npm recipes), else
 * bundled in node_modules/.bin, else on PATH.
 */
export function serverBinary(language: LanguageId, home?: string): string | undefined {
  const { server, install } = languageDescriptor(language);
  const dirs = [join(repoRoot, 'node_modules/.bin'), ...(process.env.PATH ?? '').split(delimiter)];
  if (home !== undefined && install.kind === 'npm') dirs.unshift(join(home, ...MANAGED_ROOT_SEGMENTS, install.dir, ...NPM_BIN_SEGMENTS));
  const binary = install.kind === 'npm' ? install.bin : server.binary;
  return dirs.map((d) => join(d, binary)).find((p) => existsSync(p));
}

/** Kandev's initializationOptions, with the paths the task host fills from the install (a pinned TypeScript). */
function initializeParams(language: LanguageId, binary: string, workspace: string, params: Record<string, unknown>): unknown {
  const merged = withInitializationOptions(language, params) as Record<string, unknown>;
  const found = findLauncherPaths(language, binary, workspace, process.platform);
  if (!found) return merged;
  const options: Record<string, unknown> = isRecord(merged.initializationOptions) ? { ...merged.initializationOptions } : {};
  for (const [key, path] of Object.entries(found)) {
    const keys = key.split('.');
    let at = options;
    for (const k of keys.slice(0, -1)) at = (at[k] = isRecord(at[k]) ? { ...at[k] } : {}) as Record<string, unknown>;
    if (path !== undefined) at[keys[keys.length - 1] as string] = path;
  }
  return { ...merged, initializationOptions: options };
}

/** The value at a dotted `section` of `config` (the whole of it without one), or null. */
function sectionOf(config: Record<string, unknown> | undefined, section: string | undefined): unknown {
  let at: unknown = config ?? null;
  for (const key of section ? section.split('.') : []) at = isRecord(at) && key in at ? at[key] : null;
  return at ?? null;
}

/** ms from spawn to the first non-empty diagnostics for `file`, or undefined (no binary, or none within `timeoutMs`). */
export async function stdioFirstFinding(language: LanguageId, workspace: string, file: string, home?: string, timeoutMs = 60_000): Promise<number | undefined> {
  const binary = serverBinary(language, home);
  if (!binary) return undefined;
  const start = performance.now();
  const env = home === undefined ? process.env : { ...process.env, HOME: home };
  const client = new StdioLspClient(binary, [...(languageDescriptor(language).server.args ?? [])], { cwd: workspace, env });
  // Answered as the product answers it (Kandev's defaults for the language): vscode-css-language-server, for one, validates nothing without them.
  const config = effectiveServerConfig(language, undefined);
  client.onServerRequest = (method, params) =>
    method === 'workspace/configuration' ? (params?.items ?? []).map((item: { section?: string }) => sectionOf(config, item.section)) : null;
  // The server is killed as soon as a finding came (or time ran out): a pull still looping must stop, and its last write may meet a closed pipe.
  let over = false;
  client.child.stdin?.on('error', () => undefined);
  const timer = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), timeoutMs).unref());
  try {
    const rootUri = pathToFileUri(workspace);
    const uri = pathToFileUri(join(workspace, file));
    const found = (async () => {
      const init = await client.request(
        'initialize',
        initializeParams(language, binary, workspace, {
          processId: process.pid,
          rootUri,
          workspaceFolders: [{ uri: rootUri, name: 'demo' }],
          capabilities: { textDocument: { publishDiagnostics: {}, diagnostic: {} }, workspace: { configuration: true } },
        }),
      );
      client.notify('initialized', {});
      client.notify('textDocument/didOpen', {
        textDocument: { uri, languageId: documentLanguageId(file) ?? language, version: 1, text: readFileSync(join(workspace, file), 'utf8') },
      });
      const pushed = client.waitFor((m) => m.method === 'textDocument/publishDiagnostics' && m.params?.uri === uri && m.params.diagnostics?.length > 0);
      const pull = async (): Promise<void> => {
        if (!init.result?.capabilities?.diagnosticProvider) return new Promise(() => undefined);
        while (!over) {
          const reply = await client.request('textDocument/diagnostic', { textDocument: { uri } });
          if (reply.result?.items?.length > 0) return;
          if (over) break;
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      await Promise.race([pushed, pull()]);
      return performance.now() - start;
    })();
    return await Promise.race([found, timer]);
  } finally {
    over = true;
    client.child.kill();
  }
}
