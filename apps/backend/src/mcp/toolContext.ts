import type { AgentLease, AgentWorkspace } from './agentWorkspace.js';
import { ToolError } from './toolError.js';
import { toLsp, type LspPosition } from './positions.js';
import { findSymbol, flattenSymbols, type FlatSymbol } from './symbols.js';

/** How a tool names a place: a line and column, or a symbol resolved through document symbols. */
export interface PlaceArgs {
  path: string;
  line?: number | undefined;
  column?: number | undefined;
  symbol?: string | undefined;
  kind?: string | undefined;
  container?: string | undefined;
}

export interface ResolvedPlace {
  lease: AgentLease;
  path: string;
  uri: string;
  position: LspPosition;
  text: string;
}

/** The lease serving `path`, with the file opened (or updated) from disk. */
export async function openFile(workspace: AgentWorkspace, path: string): Promise<{ lease: AgentLease; uri: string; text: string }> {
  const language = workspace.languageOf(path);
  const lease = await workspace.lease(language);
  const doc = await lease.documents.sync(path);
  return { lease, uri: doc.uri, text: doc.text };
}

export async function documentSymbols(lease: AgentLease, uri: string, text: string): Promise<FlatSymbol[]> {
  if (!lease.client.capabilities.documentSymbolProvider) throw new ToolError(`the ${lease.client.language} server does not list document symbols`);
  return flattenSymbols(await lease.client.request('textDocument/documentSymbol', { textDocument: { uri } }), text);
}

export async function resolvePlace(workspace: AgentWorkspace, args: PlaceArgs): Promise<ResolvedPlace> {
  const { lease, uri, text } = await openFile(workspace, args.path);
  const lines = text.split('\n');
  if (args.symbol !== undefined) {
    const symbols = await documentSymbols(lease, uri, text);
    const match = findSymbol(symbols, { symbol: args.symbol, kind: args.kind, container: args.container });
    const asked = [`"${args.symbol}"`, args.kind ? `kind ${args.kind}` : '', args.container ? `in ${args.container}` : ''].filter(Boolean).join(' ');
    if (match.kind === 'none') throw new ToolError(`no symbol ${asked} in ${args.path} (searched its ${match.searched} document symbols; names are exact)`);
    if (match.kind === 'many') {
      const list = match.candidates
        .slice(0, 20)
        .map((s) => `  ${args.path}:${s.at.line + 1}:${s.at.character + 1} ${s.kind} ${s.name}${s.container ? ` in ${s.container}` : ''}`);
      throw new ToolError(`${match.candidates.length} symbols match ${asked} in ${args.path}; pass kind, container or line/column:\n${list.join('\n')}`);
    }
    return { lease, path: args.path, uri, position: match.symbol.at, text };
  }
  if (args.line === undefined || args.column === undefined) throw new ToolError('give line and column (1-based), or symbol');
  if (args.line > lines.length) throw new ToolError(`${args.path} has ${lines.length} lines; line ${args.line} is past its end`);
  const lineText = (lines[args.line - 1] as string).replace(/\r$/, '');
  if (args.column > lineText.length + 1)
    throw new ToolError(`line ${args.line} of ${args.path} has ${lineText.length} characters; column ${args.column} is past its end`);
  return { lease, path: args.path, uri, position: toLsp(args.line, args.column), text };
}
