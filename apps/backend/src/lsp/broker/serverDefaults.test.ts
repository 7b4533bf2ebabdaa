import { describe, expect, it } from 'vitest';
import { BrokerHarness, INIT_RESULT, notif, openedLease, req, res, settingsWith, toServer, WORKSPACE } from './testkit.js';
import type { JsonRpcId } from './types.js';

/**
 * What the broker tells the configuration-language servers on its own: the network-off defaults
 * under the user's JSON, pushed once after `initialized` (the VS Code JSON/CSS/HTML servers never
 * ask), answered per `section` when asked, and the JSON server's initialization options.
 */
describe('server defaults through the broker', () => {
  it('gives the JSON server only the file: scheme and pushes its settings right after initialized', () => {
    const h = new BrokerHarness();
    const settings = settingsWith({ json: { json: { schemas: [{ fileMatch: ['package.json'], url: 'file:///schemas/p.json' }] } } });
    const leaseId = openedLease(h.connect('a1', { language: 'json', settings }));
    h.hostReady(leaseId, 'json');
    const [initialize] = toServer(h.fromBrowser('a1', req('i', 'initialize', { capabilities: {}, initializationOptions: { provideFormatter: false } })));
    expect(initialize?.params).toMatchObject({ initializationOptions: { handledSchemaProtocols: ['file'], provideFormatter: false } });
    h.fromServer(leaseId, res(initialize!.id as JsonRpcId, INIT_RESULT));
    const afterInitialized = toServer(h.fromBrowser('a1', notif('initialized', {})));
    expect(afterInitialized.map((m) => m.method)).toEqual(['initialized', 'workspace/didChangeConfiguration']);
    expect(afterInitialized[1]?.params).toEqual({
      settings: {
        json: { schemaDownload: { enable: false }, validate: { enable: true }, schemas: [{ fileMatch: ['package.json'], url: 'file:///schemas/p.json' }] },
      },
    });
  });

  it("answers yaml-language-server's sections with the schema store off and the user's schemas", () => {
    const h = new BrokerHarness();
    const settings = settingsWith({ yaml: { yaml: { schemas: { 'file:///s/w.json': '.github/workflows/*.yml' } } } });
    const leaseId = h.readyLease('a1', { language: 'yaml', settings });
    const [answer] = toServer(h.fromServer(leaseId, req(7, 'workspace/configuration', { items: [{ section: 'yaml' }, { section: 'http' }] })));
    expect(answer).toMatchObject({ id: 7, result: [{ schemaStore: { enable: false }, schemas: { 'file:///s/w.json': '.github/workflows/*.yml' } }, null] });
  });

  it('pushes nothing to servers that ask for their settings (workspace/configuration)', () => {
    const h = new BrokerHarness();
    const settings = settingsWith({ yaml: { yaml: { schemas: { 'file:///s/w.json': '*.yml' } } } });
    const leaseId = openedLease(h.connect('a1', { language: 'yaml', settings }));
    h.hostReady(leaseId, 'yaml');
    const [initialize] = toServer(h.fromBrowser('a1', req('i', 'initialize', { capabilities: {} })));
    h.fromServer(leaseId, res(initialize!.id as JsonRpcId, INIT_RESULT));
    expect(toServer(h.fromBrowser('a1', notif('initialized', {}))).map((m) => m.method)).toEqual(['initialized']);
  });

  it('leaves a language without defaults or user JSON exactly as before: no push, no options', () => {
    const h = new BrokerHarness();
    const leaseId = openedLease(h.connect('a1', { language: 'go' }));
    h.hostReady(leaseId, 'go');
    const params = { capabilities: {}, workspaceFolders: [{ uri: WORKSPACE.workspaceUri, name: 'w' }] };
    const [initialize] = toServer(h.fromBrowser('a1', req('i', 'initialize', params)));
    expect(initialize?.params).toEqual(params);
    h.fromServer(leaseId, res(initialize!.id as JsonRpcId, INIT_RESULT));
    expect(toServer(h.fromBrowser('a1', notif('initialized', {}))).map((m) => m.method)).toEqual(['initialized']);
  });

  it("typescript-language-server gets inlay hint preferences pushed after initialized only while the language's inlay hints switch is on", () => {
    const h = new BrokerHarness();
    const on = settingsWith({}, { lsp_editor_features: { typescript: { inlay_hints: true } } });
    const leaseId = openedLease(h.connect('a1', { language: 'typescript', settings: on }));
    h.hostReady(leaseId, 'typescript');
    const [initialize] = toServer(h.fromBrowser('a1', req('i', 'initialize', { capabilities: {} })));
    h.fromServer(leaseId, res(initialize!.id as JsonRpcId, INIT_RESULT));
    const afterInitialized = toServer(h.fromBrowser('a1', notif('initialized', {})));
    expect(afterInitialized.map((m) => m.method)).toEqual(['initialized', 'workspace/didChangeConfiguration']);
    const pushed = (afterInitialized[1]?.params as { settings: Record<string, { inlayHints: Record<string, unknown> }> }).settings;
    expect(pushed.typescript!.inlayHints).toMatchObject({
      includeInlayParameterNameHints: 'all',
      includeInlayVariableTypeHints: true,
      includeInlayFunctionLikeReturnTypeHints: true,
    });
    expect(pushed.javascript!.inlayHints).toEqual(pushed.typescript!.inlayHints);
  });

  it('typescript without the inlay hints switch and without user JSON: nothing pushed', () => {
    const h = new BrokerHarness();
    const leaseId = openedLease(h.connect('a1', { language: 'typescript' }));
    h.hostReady(leaseId, 'typescript');
    const [initialize] = toServer(h.fromBrowser('a1', req('i', 'initialize', { capabilities: {} })));
    h.fromServer(leaseId, res(initialize!.id as JsonRpcId, INIT_RESULT));
    expect(toServer(h.fromBrowser('a1', notif('initialized', {}))).map((m) => m.method)).toEqual(['initialized']);
  });
});
