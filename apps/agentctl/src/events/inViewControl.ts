/**
 * The `in_view` control, checked: the protocol's schema (at most MAX_IN_VIEW_PATHS of each kind),
 * then every path a clean workspace-relative one (lexically confined like every files-API path;
 * the poller only ever stats below the workspace root, and never follows what it finds).
 */
import { parseInViewControl as parseControl, type WireShapeResult } from '@kandev/protocol';
import { parseRelativePath } from '../files/workspace.js';

export function parseInViewControl(text: string): WireShapeResult<{ files: string[]; folders: string[] }> {
  const parsed = parseControl(text, 'in_view control');
  if (!parsed.ok) return parsed;
  const files = cleanPaths(parsed.value.files, 'files');
  if (!files.ok) return files;
  const folders = cleanPaths(parsed.value.folders, 'folders');
  if (!folders.ok) return folders;
  return { ok: true, value: { files: files.value, folders: folders.value } };
}

function cleanPaths(raw: readonly string[], member: string): WireShapeResult<string[]> {
  const paths: string[] = [];
  for (const [index, item] of raw.entries()) {
    const parsed = parseRelativePath(item);
    if (!parsed.ok) {
      const path = `${member}.${index}`;
      return { ok: false, error: { code: 'invalid_shape', message: `in_view control: ${path}: must stay inside the workspace`, path } };
    }
    paths.push(parsed.value.text);
  }
  return { ok: true, value: paths };
}
