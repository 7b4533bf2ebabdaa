import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@kandev/protocol';
import type { ActiveEditor } from '../../app/activeEditor.js';
import type { LspConnection } from '../../lib/lsp/connection.js';
import { lspPlacement, moveBefore, moveItem, orderedItems, showsLspItem } from './statusBarModel.js';

const statusBar = { ...DEFAULT_SETTINGS, lsp_status_location: 'status_bar' as const, show_status_bar: true };
const connection = {} as LspConnection;

describe('application status bar', () => {
  it('S50 status_bar + Show status bar + fine pointer: the LSP status goes to the status bar', () => {
    expect(lspPlacement(statusBar, 'desktop')).toBe('status_bar');
    expect(lspPlacement(DEFAULT_SETTINGS, 'desktop')).toBe('toolbar');
  });

  it('S51 status bar hidden or a coarse pointer: back to the toolbar (the saved preference is an input, never rewritten)', () => {
    const hidden = { ...statusBar, show_status_bar: false };
    expect(lspPlacement(hidden, 'desktop')).toBe('toolbar');
    expect(lspPlacement(statusBar, 'tablet')).toBe('toolbar');
    expect(hidden.lsp_status_location).toBe('status_bar');
  });

  it('S52/S53 the item shows only for a mounted Monaco editor of a supported file', () => {
    const kt: ActiveEditor = { sessionId: 's', path: 'a.kt', language: 'kotlin', connection };
    expect(showsLspItem(kt, 'status_bar')).toBe(true);
    expect(showsLspItem(kt, 'toolbar')).toBe(false);
    expect(showsLspItem({ sessionId: 's', path: 'notes.txt' }, 'status_bar')).toBe(false);
    expect(showsLspItem(undefined, 'status_bar')).toBe(false);
  });

  it('orders items by the saved status_bar_order, dropping unknown ids and appending new ones', () => {
    expect(orderedItems([])).toEqual(['file', 'cursor', 'lsp']);
    expect(orderedItems(['lsp', 'bogus', 'file', 'lsp'])).toEqual(['lsp', 'file', 'cursor']);
  });

  it('moves an item past its nearest visible neighbour, or before a drop target', () => {
    const all = new Set(['file', 'cursor', 'lsp'] as const);
    expect(moveItem(['file', 'cursor', 'lsp'], 'lsp', -1, all)).toEqual(['file', 'lsp', 'cursor']);
    expect(moveItem(['file', 'cursor', 'lsp'], 'file', 1, all)).toEqual(['cursor', 'file', 'lsp']);
    expect(moveItem(['file', 'cursor', 'lsp'], 'lsp', -1, new Set(['file', 'lsp'] as const))).toEqual(['lsp', 'file', 'cursor']);
    expect(moveItem(['file', 'cursor', 'lsp'], 'file', -1, all)).toBeUndefined();
    expect(moveItem(['file', 'cursor', 'lsp'], 'lsp', 1, all)).toBeUndefined();
    expect(moveBefore(['file', 'cursor', 'lsp'], 'lsp', 'file')).toEqual(['lsp', 'file', 'cursor']);
    expect(moveBefore(['file', 'cursor', 'lsp'], 'lsp', 'lsp')).toBeUndefined();
  });
});
