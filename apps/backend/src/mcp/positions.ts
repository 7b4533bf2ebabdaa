import { relativePathInWorkspace } from '@kandev/protocol';

export interface LspPosition {
  line: number;
  character: number;
}
export interface LspRange {
  start: LspPosition;
  end: LspPosition;
}
export interface LspLocation {
  uri: string;
  range: LspRange;
}

/** 1-based line and column (UTF-16 units, as editors count) to an LSP position. */
export function toLsp(line: number, column: number): LspPosition {
  return { line: line - 1, character: column - 1 };
}

export function lineOf(text: string | undefined, line0: number): string | undefined {
  if (text === undefined) return undefined;
  const lines = text.split('\n');
  return line0 >= 0 && line0 < lines.length ? (lines[line0] as string).replace(/\r$/, '').slice(0, 200) : undefined;
}

/** `path:line:col` (1-based), workspace-relative when inside the workspace, else the URI. */
export function where(workspaceUri: string, uri: string, position: LspPosition): string {
  return `${displayPath(workspaceUri, uri)}:${position.line + 1}:${position.character + 1}`;
}

export function displayPath(workspaceUri: string, uri: string): string {
  return relativePathInWorkspace(workspaceUri, uri) ?? uri;
}

export function isRange(value: unknown): value is LspRange {
  const r = value as LspRange | undefined;
  return typeof r?.start?.line === 'number' && typeof r.end?.line === 'number';
}

/** Location, LocationLink, or an array of either, as a flat list of locations. */
export function locationsOf(result: unknown): LspLocation[] {
  const list = Array.isArray(result) ? result : result ? [result] : [];
  const out: LspLocation[] = [];
  for (const item of list as Array<Record<string, unknown>>) {
    if (typeof item?.uri === 'string' && isRange(item.range)) out.push({ uri: item.uri, range: item.range });
    else if (typeof item?.targetUri === 'string' && isRange(item.targetSelectionRange ?? item.targetRange))
      out.push({ uri: item.targetUri, range: (item.targetSelectionRange ?? item.targetRange) as LspRange });
  }
  return out;
}
