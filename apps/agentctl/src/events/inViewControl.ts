/**
 * The page's `in_view` control, checked: at most MAX_IN_VIEW_PATHS of each kind, every path a clean
 * workspace-relative one (lexically confined like every files-API path; the poller only ever
 * stats below the workspace root, and never follows what it finds).
 */
import { isRecord, type WorkspaceEventControl } from '@kandev/protocol';
import { parseRelativePath } from '../files/workspace.js';

export const MAX_IN_VIEW_PATHS = 500;

export function parseInViewControl(text: string): { files: string[]; folders: string[] } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || value.type !== 'in_view') return undefined;
  const control = value as Partial<WorkspaceEventControl>;
  const files = cleanPaths(control.files);
  const folders = cleanPaths(control.folders);
  if (!files || !folders) return undefined;
  return { files, folders };
}

function cleanPaths(raw: unknown): string[] | undefined {
  if (!Array.isArray(raw) || raw.length > MAX_IN_VIEW_PATHS) return undefined;
  const paths: string[] = [];
  for (const item of raw) {
    if (typeof item !== 'string') return undefined;
    const parsed = parseRelativePath(item);
    if (!parsed.ok) return undefined;
    paths.push(parsed.value.text);
  }
  return paths;
}
