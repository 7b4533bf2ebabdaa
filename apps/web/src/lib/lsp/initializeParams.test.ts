import { describe, expect, it } from 'vitest';
import { LANGUAGE_DESCRIPTORS } from '@kandev/protocol';
import { buildInitializeParams } from './initializeParams.js';

const identity = { workspaceUri: 'file:///work/ws', workspacePath: '/work/ws', repoSubpaths: [] };
const initializeOf = (language: (typeof LANGUAGE_DESCRIPTORS)[number]['id']) => buildInitializeParams(identity, { name: 'Kandev' }, 'en', language);

describe('the initialize request of each language', () => {
  it("declares pull diagnostics with dynamic registration unless the language's server rule says static only", () => {
    for (const d of LANGUAGE_DESCRIPTORS) {
      const diagnostic = initializeOf(d.id).capabilities.textDocument?.diagnostic;
      expect(diagnostic, d.id).toEqual({ dynamicRegistration: d.server.pullDiagnosticsRegistration?.kind !== 'static_only', relatedDocumentSupport: true });
    }
  });

  it('tells tombi static only, which it takes as "publish", and says why; every other server hears the same request', () => {
    const toml = LANGUAGE_DESCRIPTORS.find((d) => d.id === 'toml')!;
    expect(toml.server.pullDiagnosticsRegistration?.kind).toBe('static_only');
    expect(toml.server.pullDiagnosticsRegistration?.because).toMatch(/didOpen/);
    expect(initializeOf('toml').capabilities.textDocument?.diagnostic?.dynamicRegistration).toBe(false);
    // Only that one flag differs: the rest of what tombi is told is what pyright is told.
    const { textDocument: tomlText, ...tomlRest } = initializeOf('toml').capabilities;
    const { textDocument: pythonText, ...pythonRest } = initializeOf('python').capabilities;
    expect(tomlRest).toEqual(pythonRest);
    expect({ ...tomlText, diagnostic: undefined }).toEqual({ ...pythonText, diagnostic: undefined });
    expect(pythonText?.diagnostic?.dynamicRegistration).toBe(true);
  });
});
