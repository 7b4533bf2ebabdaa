/**
 * bash-language-server's explainshell lookup as a network witness (docs/workspace-trust.md): an
 * HTTP listener on this host's loopback stands in for explainshell, the user's per-language
 * settings name it as the endpoint, and a hover on a command makes the server ask it for
 * `/explain?cmd=<command>` before anything else it answers with. A server that reached it shows the
 * listener's explanation; a server off the network falls through to its other documentation.
 * Shared by the Local PC and Local Docker witnesses (trust-network-shell*.test.ts).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { hoverRows, placeCaret, runEditorAction } from './page.js';

/** What the listener explains every command as: only a hover that went through it can show this. */
export const EXPLAINED = 'Explained by the loopback witness';

/** The details' note for an untrusted server in a network sandbox (en). */
export const NETWORK_OFF_NOTE = 'This workspace is not trusted: its language server runs without network access.';

export interface ExplainshellListener {
  /** The endpoint for `bashIde.explainshellEndpoint`. */
  endpoint: string;
  /** Every request path it was asked, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startExplainshellListener(): Promise<ExplainshellListener> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    // explainshell's answer shape: the match covering the hovered offset carries its help HTML.
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ matches: [{ start: 0, end: 100, helpHTML: `<p>${EXPLAINED}</p>` }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * The user's settings that start (and install) bash-language-server with the listener as
 * explainshell. Source-error diagnostics are on in the same configuration, so a script's
 * non-constant `source` being marked (CONFIGURED) shows the server has read it, endpoint and all:
 * the witness needs no shellcheck in the task host.
 */
export function explainshellSettings(listener: ExplainshellListener): Record<string, unknown> {
  return {
    lsp_auto_start_languages: ['shell'],
    lsp_auto_install_languages: ['shell'],
    lsp_server_configs: { shell: { bashIde: { explainshellEndpoint: listener.endpoint, enableSourceErrorDiagnostics: true } } },
  };
}

/** The diagnostic of a non-constant `source` (`source "$HOME/x"`) when source-error diagnostics are on. */
export const CONFIGURED = /Source command could not be analyzed/;

/** Hovers the first `text` in the editor (at `offset`) and returns the hover's text once it is shown. */
export async function hoverText(page: Page, text: string, offset = 1): Promise<string> {
  await placeCaret(page, text, offset);
  await runEditorAction(page, 'editor.action.showHover');
  await page.locator('.monaco-hover:not(.hidden) .hover-row .markdown-hover').first().waitFor({ timeout: 60_000 });
  return (await hoverRows(page)).join('\n');
}
