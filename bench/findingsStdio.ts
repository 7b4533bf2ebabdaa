/**
 * The findings bench's reference: the same language server alone over stdio, from spawn to its
 * first diagnostic for the demo file (pushed, or pulled where the server only answers pulls).
 */
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { languageDescriptor, pathToFileUri, withInitializationOptions, documentLanguageId, type LanguageId } from '@kandev/protocol';
import { repoRoot } from '../test/support/build.js';
import { StdioLspClient } from '../test/support/stdioClient.js';

/** The server's binary as this machine has it (bundled in node_modules/.bin, else on PATH). */
export function serverBinary(language: LanguageId): string | undefined {
  const binary = languageDescriptor(language).server.binary;
  const dirs = [join(repoRoot, 'node_modules/.bin'), ...(process.env.PATH ?? '').split(delimiter)];
  return dirs.map((d) => join(d, binary)).find((p) => existsSync(p));
}

/** ms from spawn to the first non-empty diagnostics for `file`, or undefined (no binary, or none within `timeoutMs`). */
export async function stdioFirstFinding(language: LanguageId, workspace: string, file: string, timeoutMs = 60_000): Promise<number | undefined> {
  const binary = serverBinary(language);
  if (!binary) return undefined;
  const start = performance.now();
  const client = new StdioLspClient(binary, [...(languageDescriptor(language).server.args ?? [])], { cwd: workspace, env: process.env });
  client.onServerRequest = (method, params) => (method === 'workspace/configuration' ? (params?.items ?? []).map(() => null) : null);
  const timer = new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), timeoutMs).unref());
  try {
    const rootUri = pathToFileUri(workspace);
    const uri = pathToFileUri(join(workspace, file));
    const found = (async () => {
      const init = await client.request(
        'initialize',
        withInitializationOptions(language, {
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
        for (;;) {
          const reply = await client.request('textDocument/diagnostic', { textDocument: { uri } });
          if (reply.result?.items?.length > 0) return;
          await new Promise((r) => setTimeout(r, 100));
        }
      };
      await Promise.race([pushed, pull()]);
      return performance.now() - start;
    })();
    return await Promise.race([found, timer]);
  } finally {
    client.child.kill();
  }
}
