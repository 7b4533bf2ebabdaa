import type * as Monaco from 'monaco-editor';
import type { CodeLens, Command, Location } from 'vscode-languageserver-protocol';
import { isRecord } from '@kandev/protocol';
import type { MonacoUri } from './host.js';
import { isLspRange, toMonacoRange } from './ranges.js';

/**
 * The one client-side command servers put on lenses that Monaco runs itself: VS Code's reference
 * peek, with (uri, position, locations) in LSP form (typescript-language-server's reference and
 * implementation counts use it). Everything else is the server's and goes through
 * workspace/executeCommand.
 */
export const SHOW_REFERENCES = 'editor.action.showReferences';

/** How a lens's command runs: Monaco's peek, the server's command, or not at all (a label). */
export type LensAction =
  | { kind: 'peek'; uri: string; position: { line: number; character: number }; locations: Location[] }
  | { kind: 'server'; command: Command }
  | { kind: 'label' };

function isLocation(value: unknown): value is Location {
  return isRecord(value) && typeof value.uri === 'string' && isLspRange(value.range);
}

/** What clicking a lens does, from its command and the commands the server executes. */
export function lensAction(command: Command, serverRuns: (name: string) => boolean): LensAction {
  if (command.command === SHOW_REFERENCES) {
    const [uri, position, locations] = Array.isArray(command.arguments) ? command.arguments : [];
    if (
      typeof uri === 'string' &&
      isRecord(position) &&
      typeof position.line === 'number' &&
      typeof position.character === 'number' &&
      Array.isArray(locations)
    ) {
      return { kind: 'peek', uri, position: { line: position.line, character: position.character }, locations: locations.filter(isLocation) };
    }
    return { kind: 'label' };
  }
  if (typeof command.command === 'string' && command.command !== '' && serverRuns(command.command)) return { kind: 'server', command };
  return { kind: 'label' };
}

/**
 * One LSP lens as Monaco shows it. Without a command it is unresolved (Monaco asks resolve once it
 * is in view); a command with an empty title (tsserver's answer to a cancelled count) shows nothing.
 * A peek becomes Monaco's own reference peek over the session's models; any other runnable
 * command calls `commandId` with the lens's handle.
 */
export function toMonacoCodeLens(
  lens: CodeLens,
  handle: number,
  commandId: string,
  serverRuns: (name: string) => boolean,
  toModelUri: (fileUri: string) => MonacoUri,
): Monaco.languages.CodeLens | undefined {
  if (!isRecord(lens) || !isLspRange(lens.range)) return undefined;
  const out: Monaco.languages.CodeLens = { range: toMonacoRange(lens.range), id: String(handle) };
  const command = lens.command;
  if (!isRecord(command) || typeof command.title !== 'string') return out;
  if (command.title === '') return out;
  const action = lensAction(command, serverRuns);
  if (action.kind === 'peek') {
    out.command = {
      id: SHOW_REFERENCES,
      title: command.title,
      arguments: [
        toModelUri(action.uri),
        { lineNumber: action.position.line + 1, column: action.position.character + 1 },
        action.locations.map((l) => ({ uri: toModelUri(l.uri), range: toMonacoRange(l.range) })),
      ],
    };
    // A peek of nothing ("0 references") is a label, as in VS Code.
    if (action.locations.length === 0) out.command = { id: '', title: command.title };
  } else if (action.kind === 'server') {
    out.command = { id: commandId, title: command.title, arguments: [handle] };
  } else {
    out.command = { id: '', title: command.title };
  }
  if (typeof command.tooltip === 'string') out.command.tooltip = command.tooltip;
  return out;
}

/** The files a peek lens points at (loaded before Monaco previews them). */
export function lensTargets(lens: CodeLens): string[] {
  if (!lens.command) return [];
  const action = lensAction(lens.command, () => false);
  return action.kind === 'peek' ? [...new Set(action.locations.map((l) => l.uri))] : [];
}
