/** The keyboard shortcuts of the workbench, one place for the handlers and the help dialog. */
export type ShortcutId = 'quickOpen' | 'save' | 'findInFiles' | 'help';

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** Which shortcut a key press is, if any. `?` only counts outside text fields (it is a character there). */
export function shortcutOf(e: KeyLike, inTextField: boolean): ShortcutId | undefined {
  const mod = e.ctrlKey || e.metaKey;
  const key = e.key.toLowerCase();
  if (mod && !e.altKey && !e.shiftKey && key === 'p') return 'quickOpen';
  if (mod && !e.altKey && !e.shiftKey && key === 's') return 'save';
  if (mod && !e.altKey && e.shiftKey && key === 'f') return 'findInFiles';
  if (!mod && !e.altKey && e.key === '?' && !inTextField) return 'help';
  return undefined;
}

/** The keys of a shortcut as shown to a person on this platform. */
export function shortcutKeys(id: ShortcutId, mac: boolean): string[] {
  const mod = mac ? '⌘' : 'Ctrl';
  switch (id) {
    case 'quickOpen':
      return [mod, 'P'];
    case 'save':
      return [mod, 'S'];
    case 'findInFiles':
      return [mod, mac ? '⇧' : 'Shift', 'F'];
    case 'help':
      return ['?'];
  }
}

export const SHORTCUTS: readonly ShortcutId[] = ['quickOpen', 'findInFiles', 'save', 'help'];

export function isMacPlatform(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}

/** True when keys typed go into a text field or the code editor. */
export function isTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target.closest('.monaco-editor')) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return !['checkbox', 'radio', 'button', 'submit'].includes((target as HTMLInputElement).type);
  return false;
}
