import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  documentLanguageId,
  effectiveServerConfig,
  encodeLspFrame,
  isRecord,
  LspFrameDecoder,
  offeredServerFeatures,
  pathToFileUri,
  withInitializationOptions,
  type LanguageDescriptor,
  type LanguageId,
  type ServerFeature,
} from '@kandev/protocol';
import { catalogLanguage } from '../apps/agentctl/src/catalog/catalog.js';
import { installLanguageServer, InstallLock } from '../apps/agentctl/src/install/index.js';
import { resolveServer } from '../apps/agentctl/src/resolve/resolveServer.js';
import { fillLauncherPaths, findLauncherPaths } from '../apps/agentctl/src/stream/launcherPaths.js';
// The initialize request the web app sends (its client capabilities included), so the table
// follows what the editor advertises today rather than a copy of it.
import { buildInitializeParams } from '../apps/web/src/lib/lsp/initializeParams.js';

/** What one catalog server offered, or why it could not be asked here. */
export type Measurement =
  | {
      kind: 'measured';
      language: LanguageId;
      binary: string;
      /** `serverInfo` of the initialize result (name and version), when the server sent one. */
      serverInfo: string | null;
      features: ServerFeature[];
      /** The features offered only through `client/registerCapability`. */
      dynamicOnly: ServerFeature[];
    }
  | { kind: 'not_run'; language: LanguageId; binary: string; reason: string };

export interface MeasureOptions {
  /** A scratch folder: the workspace each server is started in. */
  work: string;
  /** The task environment servers are resolved, installed and started in (HOME, PATH). */
  env: Record<string, string>;
  /** Quiet time after the sample file opened before registrations are taken as complete. */
  quietMs?: number;
  /** The longest wait for that quiet. */
  settleMs?: number;
  /** How long `initialize` may take on a loaded machine. */
  initializeTimeoutMs?: number;
}

type Message = Record<string, unknown>;

/** The first file name a descriptor's file rule accepts, for the sample document. */
function sampleFileName(d: LanguageDescriptor<LanguageId>): string {
  const extension = d.files.extensions[0];
  if (extension) return `sample${extension}`;
  const name = d.files.fileNames[0] ?? d.files.fileNamePrefixes[0];
  if (!name) throw new Error(`${d.id}: its file rule names no extension or file name to sample`);
  return name;
}

/** The value of a dotted `workspace/configuration` section in `config`, or null. */
function sectionOf(config: Record<string, unknown> | undefined, section: unknown): unknown {
  if (typeof section !== 'string' || section === '') return config ?? null;
  let node: unknown = config;
  for (const key of section.split('.')) node = isRecord(node) ? node[key] : undefined;
  return node ?? null;
}

async function findServer(d: LanguageDescriptor<LanguageId>, env: Record<string, string>, workspace: string): Promise<string | { reason: string }> {
  const resolve = () => resolveServer({ language: catalogLanguage(d.id), env, platform: 'linux', workspaceReal: workspace });
  const found = await resolve();
  if (found.found) return found.path;
  if (d.install.kind === 'never') return { reason: `${d.server.binary} is not on this machine's PATH, and Kandev never installs it` };
  const installed = await installLanguageServer({ language: d.id, env, platform: 'linux', signal: new AbortController().signal }, { lock: new InstallLock() });
  if (!installed.ok) return { reason: `${d.server.binary} could not be installed here: ${JSON.stringify(installed.error)}` };
  const again = await resolve();
  return again.found ? again.path : { reason: `${d.server.binary} was installed but not found` };
}

/**
 * Starts the language's server as the product would (its launcher and arguments, Kandev's
 * initialization options and settings, the web app's initialize request), opens one sample file,
 * collects the registrations made until the server has been quiet for `quietMs`, and shuts it down.
 */
export async function measureServer(d: LanguageDescriptor<LanguageId>, options: MeasureOptions): Promise<Measurement> {
  const base = { language: d.id, binary: d.server.binary };
  const workspace = join(options.work, d.id);
  mkdirSync(workspace, { recursive: true });
  const sample = sampleFileName(d);
  writeFileSync(join(workspace, sample), '');
  const launcher = await findServer(d, options.env, workspace);
  if (typeof launcher !== 'string') return { kind: 'not_run', ...base, reason: launcher.reason };

  const child = spawn(launcher, [...d.server.args], { cwd: workspace, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString('utf8')).slice(-4000)));
  const exited = new Promise<string>((resolve) => {
    child.once('error', (error) => resolve(error.message));
    child.once('exit', (code, signal) => resolve(`exited (${signal ?? `code ${code}`})`));
  });
  const send = (message: Message) => {
    if (child.stdin.writable) child.stdin.write(encodeLspFrame(JSON.stringify({ jsonrpc: '2.0', ...message })));
  };

  const config = effectiveServerConfig(d.id, undefined);
  const registrations = new Map<string, unknown>();
  let lastMessageAt = Date.now();
  let initializeResult: ((m: Message) => void) | undefined;
  let shutdownReply: (() => void) | undefined;
  const decoder = new LspFrameDecoder();
  child.stdout.on('data', (chunk: Buffer) => {
    for (const body of decoder.push(chunk)) onMessage(JSON.parse(body) as Message);
  });

  function onMessage(message: Message): void {
    lastMessageAt = Date.now();
    const params = message.params;
    if (typeof message.method === 'string' && message.id !== undefined) {
      const reply = (result: unknown) => send({ id: message.id, result });
      switch (message.method) {
        case 'client/registerCapability':
          for (const r of isRecord(params) && Array.isArray(params.registrations) ? params.registrations : []) {
            if (isRecord(r) && typeof r.id === 'string') registrations.set(r.id, r);
          }
          return reply(null);
        case 'client/unregisterCapability':
          for (const u of isRecord(params) && Array.isArray(params.unregisterations) ? params.unregisterations : []) {
            if (isRecord(u) && typeof u.id === 'string') registrations.delete(u.id);
          }
          return reply(null);
        case 'workspace/configuration':
          return reply(
            (isRecord(params) && Array.isArray(params.items) ? params.items : []).map((item) => sectionOf(config, isRecord(item) ? item.section : undefined)),
          );
        case 'workspace/workspaceFolders':
          return reply([{ uri: pathToFileUri(workspace), name: d.id }]);
        default:
          return reply(null);
      }
    }
    if (message.id === 1 && message.method === undefined) initializeResult?.(message);
    if (message.id === 2 && message.method === undefined) shutdownReply?.();
  }

  const timeout = (ms: number) => new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms).unref());
  try {
    const identity = { workspaceUri: pathToFileUri(workspace), workspacePath: workspace, repoSubpaths: [] };
    const params = withInitializationOptions(d.id, buildInitializeParams(identity, { name: 'Kandev capability table' }, 'en', d.id));
    const answered = new Promise<Message>((resolve) => (initializeResult = resolve));
    // The paths agentctl fills in as it starts the server (its TypeScript library), as it would.
    const launcherPaths = findLauncherPaths(d.id, launcher, workspace, 'linux');
    const request = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params });
    if (child.stdin.writable) child.stdin.write(encodeLspFrame(launcherPaths ? fillLauncherPaths(request, launcherPaths, false) : request));
    const first = await Promise.race([answered, exited, timeout(options.initializeTimeoutMs ?? 90_000)]);
    if (first === 'timeout') return { kind: 'not_run', ...base, reason: 'initialize was not answered in time' };
    if (typeof first === 'string') return { kind: 'not_run', ...base, reason: `${first} before answering initialize: ${firstLine(stderr)}` };
    if (!isRecord(first.result)) return { kind: 'not_run', ...base, reason: `initialize failed: ${JSON.stringify(first.error)}` };
    const result = first.result;

    send({ method: 'initialized', params: {} });
    if (d.server.configuration === 'push') send({ method: 'workspace/didChangeConfiguration', params: { settings: config ?? {} } });
    const uri = pathToFileUri(join(workspace, sample));
    const languageId = documentLanguageId(sample);
    send({ method: 'textDocument/didOpen', params: { textDocument: { uri, languageId, version: 1, text: '' } } });
    // Servers register in their `initialized` handler, some after a configuration round trip or
    // once a document is open: registrations are complete when the server has gone quiet.
    // A server that never goes quiet (progress or log lines every second) is read after `settleMs`.
    const quietMs = options.quietMs ?? 2000;
    const settleBy = Date.now() + (options.settleMs ?? 20_000);
    lastMessageAt = Date.now();
    while (Date.now() - lastMessageAt < quietMs && Date.now() < settleBy) await timeout(200);

    const dynamic = [...registrations.values()];
    const features = offeredServerFeatures(result.capabilities, dynamic);
    const staticOnly = new Set(offeredServerFeatures(result.capabilities, []));
    const info = isRecord(result.serverInfo) && typeof result.serverInfo.name === 'string' ? result.serverInfo : null;
    return {
      kind: 'measured',
      ...base,
      serverInfo: info ? [info.name, versionOf(info.version)].join(' ').trim() : null,
      features,
      dynamicOnly: features.filter((f) => !staticOnly.has(f)),
    };
  } finally {
    const done = new Promise<void>((resolve) => (shutdownReply = resolve));
    send({ id: 2, method: 'shutdown', params: null });
    await Promise.race([done, exited, timeout(5000)]);
    send({ method: 'exit', params: null });
    if ((await Promise.race([exited, timeout(3000)])) === 'timeout') child.kill('SIGKILL');
  }
}

function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .map((l) => l.trim())
      .find(Boolean)
      ?.slice(0, 160) ?? 'no output'
  );
}

/** A server's version as one short word: gopls sends its build information as JSON. */
function versionOf(version: unknown): string {
  if (typeof version !== 'string') return '';
  if (!version.startsWith('{')) return version;
  try {
    const build = JSON.parse(version) as { Version?: unknown; GoVersion?: unknown };
    return [build.Version, build.GoVersion && `(${String(build.GoVersion)})`].filter((v) => typeof v === 'string' && v !== '').join(' ');
  } catch {
    return '';
  }
}
