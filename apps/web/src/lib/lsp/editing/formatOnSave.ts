import { deadline, systemClock, type Clock } from '@kandev/kit';
import type { TextEdit } from 'vscode-languageserver-protocol';
import type { EditorPreferences } from './preferences.js';
import type { DocumentFormatter } from './registry.js';

export interface FormattableModel {
  getVersionId(): number;
  getOptions(): { tabSize: number; insertSpaces: boolean };
  /** LSP edits as one undo stop. */
  applyEdits(edits: readonly TextEdit[]): void;
}

/**
 * Format on save (a per-language switch, off by default): the server's formatter, bounded in
 * time so a slow server never holds a save, and dropped if the person typed meanwhile.
 */
export async function formatBeforeSave(
  path: string,
  model: FormattableModel,
  preferences: EditorPreferences,
  formatters: DocumentFormatter[],
  timeoutMs = 3_000,
  clock: Clock = systemClock,
): Promise<boolean> {
  if (!preferences.formatOnSave || formatters.length === 0) return false;
  const version = model.getVersionId();
  const formatter = formatters[0] as DocumentFormatter;
  const limit = deadline(clock, timeoutMs);
  const edits = await Promise.race([formatter(path, model.getOptions()).catch(() => undefined), limit.reached.then(() => undefined)]);
  limit.dispose();
  if (!edits || edits.length === 0 || model.getVersionId() !== version) return false;
  model.applyEdits(edits);
  return true;
}
