import { describe, expect, it } from 'vitest';
import { offeredServerFeatures, SERVER_FEATURE_SOURCES, SERVER_FEATURES } from './serverFeatures.js';

describe('offeredServerFeatures', () => {
  it('reads static capabilities: true or an options object offers, false and absence do not', () => {
    const caps = { hoverProvider: true, definitionProvider: false, completionProvider: { triggerCharacters: ['.'] }, colorProvider: {} };
    expect(offeredServerFeatures(caps, [])).toEqual(['completion', 'hover', 'color']);
  });

  it('adds what was registered dynamically, by method', () => {
    const registrations = [
      { id: '1', method: 'textDocument/diagnostic', registerOptions: {} },
      { id: '2', method: 'workspace/didRenameFiles' },
      { id: '3', method: 'textDocument/didChangeWatchedFiles' },
    ];
    expect(offeredServerFeatures({}, registrations)).toEqual(['diagnostic', 'fileOperations']);
  });

  it('does not count an options object that offers nothing', () => {
    const caps = {
      semanticTokensProvider: { legend: { tokenTypes: [], tokenModifiers: [] } },
      executeCommandProvider: { commands: [] },
      workspace: { fileOperations: {} },
    };
    expect(offeredServerFeatures(caps, [])).toEqual([]);
    expect(offeredServerFeatures({ semanticTokensProvider: { full: true }, workspace: { fileOperations: { didCreate: { filters: [] } } } }, [])).toEqual([
      'semanticTokens',
      'fileOperations',
    ]);
  });

  it('maps each registration method to its one feature', () => {
    for (const feature of SERVER_FEATURES) {
      for (const method of SERVER_FEATURE_SOURCES[feature].methods) expect(offeredServerFeatures({}, [{ id: method, method }]), method).toEqual([feature]);
    }
  });
});
