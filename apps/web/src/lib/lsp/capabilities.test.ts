import { describe, expect, it } from 'vitest';
import { ServerCapabilityIndex } from './capabilities.js';

describe('ServerCapabilityIndex', () => {
  it('S16 an omitted capability is not active; advertised ones are, with their options', () => {
    const index = new ServerCapabilityIndex({
      hoverProvider: true,
      completionProvider: { triggerCharacters: ['.'], resolveProvider: true },
      definitionProvider: false,
    });
    expect(index.activeFeatures()).toEqual(['completion', 'hover']);
    expect(index.has('definition')).toBe(false);
    expect(index.has('references')).toBe(false);
    expect(index.has('signatureHelp')).toBe(false);
    expect(index.registrations('completion')).toEqual([
      { id: 'static', feature: 'completion', options: { triggerCharacters: ['.'], resolveProvider: true }, documentSelector: null },
    ]);
  });

  it('semantic tokens count only with a legend and full or range requests', () => {
    const legend = { tokenTypes: ['class'], tokenModifiers: [] };
    expect(new ServerCapabilityIndex({ semanticTokensProvider: { legend } }).has('semanticTokens')).toBe(false);
    expect(new ServerCapabilityIndex({ semanticTokensProvider: { full: true } as never }).has('semanticTokens')).toBe(false);
    expect(new ServerCapabilityIndex({ semanticTokensProvider: { legend, range: true } }).has('semanticTokens')).toBe(true);
    expect(new ServerCapabilityIndex({ semanticTokensProvider: { legend, full: { delta: true } } }).has('semanticTokens')).toBe(true);
  });

  it('tracks dynamic registrations and unregistrations, firing a change', () => {
    const index = new ServerCapabilityIndex({}, [{ id: 'r0', method: 'workspace/didChangeWatchedFiles', registerOptions: {} }]);
    let changes = 0;
    index.onDidChange(() => changes++);
    index.register([{ id: 'r1', method: 'textDocument/references', registerOptions: { documentSelector: [{ language: 'go' }] } }]);
    expect(index.registrations('references')).toEqual([
      { id: 'r1', feature: 'references', options: { documentSelector: [{ language: 'go' }] }, documentSelector: [{ language: 'go' }] },
    ]);
    expect(index.dynamicRegistrations().map((r) => r.id)).toEqual(['r0', 'r1']);
    index.unregister([{ id: 'r1', method: 'textDocument/references' }]);
    expect(index.has('references')).toBe(false);
    expect(changes).toBe(2);
  });

  it('derives document sync from a bare kind, options, and didSave/didChange registrations', () => {
    expect(new ServerCapabilityIndex({ textDocumentSync: 2 }).sync()).toEqual({ openClose: true, change: 2, save: { includeText: false } });
    expect(new ServerCapabilityIndex({ textDocumentSync: { openClose: true, change: 1, save: { includeText: true } } }).sync()).toEqual({
      openClose: true,
      change: 1,
      save: { includeText: true },
    });
    expect(new ServerCapabilityIndex({}).sync()).toEqual({ openClose: false, change: 0, save: false });
    const dynamic = new ServerCapabilityIndex({ textDocumentSync: { openClose: true, change: 2 } });
    dynamic.register([{ id: 's', method: 'textDocument/didSave', registerOptions: { includeText: true } }]);
    expect(dynamic.sync().save).toEqual({ includeText: true });
  });
});
