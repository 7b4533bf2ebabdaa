import { isLanguageId, LANGUAGE_IDS } from '@kandev/protocol';
import type { AgentWorkspace } from './agentWorkspace.js';
import { ToolError } from './toolError.js';
import { renderBudgeted, type BudgetedItem } from './budget.js';
import { displayPath, lineOf, locationsOf, where, type LspLocation, type LspRange } from './positions.js';
import { documentSymbols, openFile, resolvePlace, type PlaceArgs } from './toolContext.js';
import { kindName } from './symbols.js';
import { afterIndexing } from './waiting.js';

interface SymbolInformation {
  name: string;
  kind?: number;
  containerName?: string;
  location?: { uri?: string; range?: LspRange };
}
interface CallItem {
  name: string;
  kind?: number;
  uri: string;
  selectionRange: LspRange;
}
interface Call {
  from?: CallItem;
  to?: CallItem;
  fromRanges?: LspRange[];
}

export interface ToolAnswer {
  text: string;
  structured: Record<string, unknown>;
}

const MAX_CONTEXT_FILES = 40;

/** Reads the line of context for each location, from the lease's open text or from disk (bounded). */
async function itemsOf(workspace: AgentWorkspace, workspaceUri: string, locations: LspLocation[], known: Map<string, string>): Promise<BudgetedItem[]> {
  const items: BudgetedItem[] = [];
  for (const location of locations) {
    const path = displayPath(workspaceUri, location.uri);
    if (!known.has(path) && known.size < MAX_CONTEXT_FILES && path !== location.uri) {
      try {
        known.set(path, (await workspace.files.read(path)).content);
      } catch {
        known.set(path, '');
      }
    }
    const context = lineOf(known.get(path), location.range.start.line);
    items.push({ path, line: where(workspaceUri, location.uri, location.range.start), ...(context !== undefined ? { context } : {}) });
  }
  return items;
}

function structuredLocations(workspaceUri: string, locations: LspLocation[]): Array<Record<string, unknown>> {
  return locations.map((l) => ({ path: displayPath(workspaceUri, l.uri), line: l.range.start.line + 1, column: l.range.start.character + 1 }));
}

export async function hover(workspace: AgentWorkspace, args: PlaceArgs): Promise<ToolAnswer> {
  const place = await resolvePlace(workspace, args);
  const result = (await place.lease.client.request('textDocument/hover', { textDocument: { uri: place.uri }, position: place.position })) as {
    contents?: unknown;
  } | null;
  const text = hoverText(result?.contents).trim();
  const at = `${place.path}:${place.position.line + 1}:${place.position.character + 1}`;
  return {
    text: text ? `${at}\n${text}` : `${at}: no hover information`,
    structured: { path: place.path, line: place.position.line + 1, column: place.position.character + 1, hover: text },
  };
}

function hoverText(contents: unknown): string {
  if (typeof contents === 'string') return contents;
  if (Array.isArray(contents)) return contents.map(hoverText).join('\n');
  if (contents && typeof contents === 'object' && 'value' in contents) return String((contents as { value: unknown }).value);
  return '';
}

type LocationMethod = 'textDocument/definition' | 'textDocument/references' | 'textDocument/implementation';

export async function locations(workspace: AgentWorkspace, method: LocationMethod, args: PlaceArgs & { max_results: number }): Promise<ToolAnswer> {
  const place = await resolvePlace(workspace, args);
  const client = place.lease.client;
  const capability = {
    'textDocument/definition': 'definitionProvider',
    'textDocument/references': 'referencesProvider',
    'textDocument/implementation': 'implementationProvider',
  }[method];
  if (!client.capabilities[capability]) throw new ToolError(`the ${client.language} server does not answer ${method.slice('textDocument/'.length)}`);
  if (method === 'textDocument/references') await afterIndexing(client, workspace.clock);
  const params = {
    textDocument: { uri: place.uri },
    position: place.position,
    ...(method === 'textDocument/references' ? { context: { includeDeclaration: true } } : {}),
  };
  const found = locationsOf(await client.request(method, params));
  const name = method.slice('textDocument/'.length);
  const header = `${found.length} ${name} result${found.length === 1 ? '' : 's'} for ${place.path}:${place.position.line + 1}:${place.position.character + 1}`;
  const items = await itemsOf(workspace, client.workspaceUri, found, new Map([[place.path, place.text]]));
  const rendered = renderBudgeted(header, items, args.max_results);
  return {
    text: rendered.text,
    structured: { count: found.length, detail: rendered.detail, locations: structuredLocations(client.workspaceUri, found.slice(0, args.max_results)) },
  };
}

export async function symbolsOfDocument(workspace: AgentWorkspace, args: { path: string; max_results: number }): Promise<ToolAnswer> {
  const { lease, uri, text } = await openFile(workspace, args.path);
  const symbols = await documentSymbols(lease, uri, text);
  const items = symbols.map((s) => ({
    path: args.path,
    line: `${'  '.repeat(s.depth)}${args.path}:${s.at.line + 1}:${s.at.character + 1} ${s.kind} ${s.name}`,
  }));
  const rendered = renderBudgeted(`${symbols.length} symbols in ${args.path}`, items, args.max_results);
  return {
    text: rendered.text,
    structured: {
      symbols: symbols
        .slice(0, args.max_results)
        .map((s) => ({ name: s.name, kind: s.kind, container: s.container, line: s.at.line + 1, column: s.at.character + 1 })),
    },
  };
}

export async function symbolsOfWorkspace(workspace: AgentWorkspace, args: { query: string; language: string; max_results: number }): Promise<ToolAnswer> {
  if (!isLanguageId(args.language)) throw new ToolError(`unknown language "${args.language}"; one of: ${LANGUAGE_IDS.join(', ')}`);
  const language = args.language;
  const lease = await workspace.lease(language);
  const client = lease.client;
  if (!client.capabilities.workspaceSymbolProvider) throw new ToolError(`the ${language} server does not search workspace symbols`);
  await afterIndexing(client, workspace.clock);
  const result = await client.request('workspace/symbol', { query: args.query });
  const list = Array.isArray(result) ? (result as SymbolInformation[]) : [];
  const found = list.filter((s) => typeof s?.name === 'string' && typeof s.location?.uri === 'string');
  const items = found.map((s) => {
    const uri = s.location?.uri as string;
    const start = s.location?.range?.start ?? { line: 0, character: 0 };
    return {
      path: displayPath(client.workspaceUri, uri),
      line: `${where(client.workspaceUri, uri, start)} ${kindName(s.kind)} ${s.name}${s.containerName ? ` in ${s.containerName}` : ''}`,
    };
  });
  const rendered = renderBudgeted(`${found.length} workspace symbols matching "${args.query}"`, items, args.max_results);
  return { text: rendered.text, structured: { count: found.length, symbols: items.slice(0, args.max_results).map((i) => i.line) } };
}

export async function callHierarchy(
  workspace: AgentWorkspace,
  args: PlaceArgs & { direction: 'incoming' | 'outgoing'; max_results: number },
): Promise<ToolAnswer> {
  const place = await resolvePlace(workspace, args);
  const client = place.lease.client;
  if (!client.capabilities.callHierarchyProvider) throw new ToolError(`the ${client.language} server does not answer call hierarchy`);
  await afterIndexing(client, workspace.clock);
  const roots = (await client.request('textDocument/prepareCallHierarchy', { textDocument: { uri: place.uri }, position: place.position })) as
    CallItem[] | null;
  if (!roots || roots.length === 0)
    return { text: `no callable symbol at ${place.path}:${place.position.line + 1}:${place.position.character + 1}`, structured: { calls: [] } };
  const items: Array<{ path: string; line: string }> = [];
  for (const root of roots) {
    const method = args.direction === 'incoming' ? 'callHierarchy/incomingCalls' : 'callHierarchy/outgoingCalls';
    const calls = ((await client.request(method, { item: root })) as Call[] | null) ?? [];
    for (const call of calls) {
      const other = args.direction === 'incoming' ? call.from : call.to;
      if (!other) continue;
      const range = (call.fromRanges?.[0] ?? other.selectionRange).start;
      const uri = args.direction === 'incoming' ? other.uri : root.uri;
      items.push({
        path: displayPath(client.workspaceUri, uri),
        line: `${where(client.workspaceUri, uri, range)} ${args.direction === 'incoming' ? 'called from' : 'calls'} ${kindName(other.kind)} ${other.name}`,
      });
    }
  }
  const rendered = renderBudgeted(`${items.length} ${args.direction} calls of ${roots.map((r) => r.name).join(', ')}`, items, args.max_results);
  return { text: rendered.text, structured: { calls: items.slice(0, args.max_results).map((i) => i.line) } };
}
