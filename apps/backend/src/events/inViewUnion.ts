/**
 * Every page sends the paths it has in view; the task host is told their union (one upstream per
 * session), capped like a single page's control so agentctl never refuses it.
 */
import { MAX_IN_VIEW_PATHS, parseInViewControl, type WireShapeResult, type WorkspaceEventControl } from '@kandev/protocol';

export type InView = { files: string[]; folders: string[] };

/** A page's `in_view` control, checked by the protocol's schema (agentctl confines each path). */
export function parsePageControl(text: string): WireShapeResult<InView> {
  const parsed = parseInViewControl(text, 'page in_view control');
  return parsed.ok ? { ok: true, value: { files: parsed.value.files, folders: parsed.value.folders } } : parsed;
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
