import { describe, expect, it } from 'vitest';
import { shortcutKeys, shortcutOf } from './shortcuts.js';

const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean; altKey: boolean }> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe('shortcuts', () => {
  it('Ctrl or Cmd+P quick open, +S save, +Shift+F find in files; ? help outside text fields', () => {
    expect(shortcutOf(key('p', { ctrlKey: true }), true)).toBe('quickOpen');
    expect(shortcutOf(key('P', { metaKey: true }), false)).toBe('quickOpen');
    expect(shortcutOf(key('s', { ctrlKey: true }), true)).toBe('save');
    expect(shortcutOf(key('F', { ctrlKey: true, shiftKey: true }), true)).toBe('findInFiles');
    expect(shortcutOf(key('?', { shiftKey: true }), false)).toBe('help');
    expect(shortcutOf(key('?', { shiftKey: true }), true)).toBeUndefined();
    expect(shortcutOf(key('p'), false)).toBeUndefined();
    expect(shortcutOf(key('p', { ctrlKey: true, altKey: true }), false)).toBeUndefined();
  });

  it('shows platform keys', () => {
    expect(shortcutKeys('quickOpen', true)).toEqual(['⌘', 'P']);
    expect(shortcutKeys('findInFiles', false)).toEqual(['Ctrl', 'Shift', 'F']);
  });
});
