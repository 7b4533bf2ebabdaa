import type { UserSettings } from '@kandev/protocol';
import type { FormFactor } from '../../device/formFactor.js';
import type { ActiveEditor } from '../../app/activeEditor.js';

/** Items of the application status bar; `lsp` is the active Monaco file's language-server item. */
export const STATUS_BAR_ITEMS = ['file', 'cursor', 'lsp'] as const;
export type StatusBarItemId = (typeof STATUS_BAR_ITEMS)[number];

const isItem = (id: string): id is StatusBarItemId => (STATUS_BAR_ITEMS as readonly string[]).includes(id);

/** The saved order (status_bar_order), unknown ids dropped, items it does not name appended in default order. */
export function orderedItems(saved: readonly string[] | undefined): StatusBarItemId[] {
  const out: StatusBarItemId[] = [];
  for (const id of saved ?? []) if (isItem(id) && !out.includes(id)) out.push(id);
  for (const id of STATUS_BAR_ITEMS) if (!out.includes(id)) out.push(id);
  return out;
}

/** Moves `id` past its nearest visible neighbour in `direction`; undefined when it cannot move. */
export function moveItem(
  order: readonly StatusBarItemId[],
  id: StatusBarItemId,
  direction: -1 | 1,
  visible: ReadonlySet<StatusBarItemId>,
): StatusBarItemId[] | undefined {
  const from = order.indexOf(id);
  if (from < 0) return undefined;
  let to = from + direction;
  while (to >= 0 && to < order.length && !visible.has(order[to] as StatusBarItemId)) to += direction;
  if (to < 0 || to >= order.length) return undefined;
  const next = order.filter((x) => x !== id);
  // With `id` removed, index `to` is right after the neighbour when moving right, at it when moving left.
  next.splice(to, 0, id);
  return next;
}

/** Drag and drop: `id` goes right before `target`. */
export function moveBefore(order: readonly StatusBarItemId[], id: StatusBarItemId, target: StatusBarItemId): StatusBarItemId[] | undefined {
  if (id === target || !order.includes(id) || !order.includes(target)) return undefined;
  const next = order.filter((x) => x !== id);
  next.splice(next.indexOf(target), 0, id);
  return next;
}

export type LspPlacement = 'toolbar' | 'status_bar';

/**
 * Where the LSP status of the active editor goes. `status_bar` needs the status bar shown and a
 * fine pointer; otherwise the toolbar keeps it, and the saved preference is left as it is (S51).
 */
export function lspPlacement(settings: Pick<UserSettings, 'lsp_status_location' | 'show_status_bar'>, form: FormFactor): LspPlacement {
  return settings.lsp_status_location === 'status_bar' && settings.show_status_bar && form === 'desktop' ? 'status_bar' : 'toolbar';
}

/** The status-bar LSP item shows only for a mounted Monaco editor of a supported file (S50, S52, S53). */
export function showsLspItem(
  active: ActiveEditor | undefined,
  placement: LspPlacement,
): active is ActiveEditor & Required<Pick<ActiveEditor, 'language' | 'connection'>> {
  return placement === 'status_bar' && active?.language !== undefined && active.connection !== undefined;
}
