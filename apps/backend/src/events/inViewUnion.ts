/**
 * Every page sends the paths it has in view; the task host is told their union (one upstream per
 * session), capped like a single page's control so agentctl never refuses it.
 */
import { isRecord, type WorkspaceEventControl } from '@kandev/protocol';

export const MAX_IN_VIEW_PATHS = 500;
const MAX_PATH_LENGTH = 4096;

export type InView = { files: string[]; folders: string[] };

/** A page's `in_view` control, checked for shape and bounds (agentctl confines each path). */
export function parsePageControl(text: string): InView | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(value) || value.type !== 'in_view') return undefined;
  const files = stringList((value as Partial<WorkspaceEventControl>).files);
  const folders = stringList((value as Partial<WorkspaceEventControl>).folders);
  return files && folders ? { files, folders } : undefined;
}

function stringList(raw: unknown): string[] | undefined {
  if (!Array.isArray(raw) || raw.length > MAX_IN_VIEW_PATHS) return undefined;
  return raw.every((p) => typeof p === 'string' && p.length <= MAX_PATH_LENGTH) ? (raw as string[]) : undefined;
}

export function unionControl(views: Iterable<InView>): WorkspaceEventControl {
  const files = new Set<string>();
  const folders = new Set<string>();
  for (const view of views) {
    for (const file of view.files) if (files.size < MAX_IN_VIEW_PATHS) files.add(file);
    for (const folder of view.folders) if (folders.size < MAX_IN_VIEW_PATHS) folders.add(folder);
  }
  return { type: 'in_view', files: [...files], folders: [...folders] };
}
