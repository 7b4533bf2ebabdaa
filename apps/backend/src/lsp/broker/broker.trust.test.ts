import { describe, expect, it } from 'vitest';
import { languageDescriptor, RUST_ANALYZER_UNTRUSTED, type LanguageId } from '@kandev/protocol';
import { BrokerHarness, browserCloses, logs, notif, ofType, openedLease, req, res, settingsWith, toBrowser, toServer, TRUSTED_TOOLS } from './testkit.js';
import type { JsonRpcMessage } from './types.js';

const WORKSPACE_TS = '/workspace/node_modules/typescript/lib/tsserver.js';
const BROWSER_INIT_OPTIONS = {
  tsserver: { path: WORKSPACE_TS, fallbackPath: WORKSPACE_TS, logVerbosity: 'off' },
  plugins: [{ name: 'evil', location: '/workspace' }],
  npmLocation: '/workspace/bin/npm',
  preferences: { quotePreference: 'single' },
};

/** Connects, gets ready (with the given pins), sends initialize; returns what reached the server and the browser. */
function initialize(
  h: BrokerHarness,
  o: { language: 'typescript' | 'python' | 'rust' | 'kotlin' | 'go'; trusted?: boolean; pins?: Record<string, unknown> | null; options?: unknown },
) {
  const lease = openedLease(h.connect('tab', { language: o.language, ...(o.trusted === undefined ? {} : { trusted: o.trusted }) }));
  h.hostReady(lease, o.language, o.pins === undefined ? TRUSTED_TOOLS : o.pins);
  const fx = h.fromBrowser('tab', req('i1', 'initialize', { capabilities: {}, initializationOptions: o.options ?? BROWSER_INIT_OPTIONS }));
  return { lease, server: toServer(fx, lease), browser: toBrowser(fx, 'tab') };
}

function forwardedOptions(server: JsonRpcMessage[]): Record<string, unknown> {
  const init = server.find((m) => m.method === 'initialize');
  if (!init) throw new Error('initialize was not forwarded');
  return (init.params as { initializationOptions: Record<string, unknown> }).initializationOptions;
}

/** The refusal an untrusted lease's initialize gets, as the language's descriptor words it. */
function refusalOf(language: LanguageId): string {
  const rule = languageDescriptor(language).untrusted;
  if (rule.kind !== 'guarded' || !('refusal' in rule.initialize)) throw new Error(`${language} refuses nothing`);
  return rule.initialize.refusal;
}

describe('workspace trust in the broker (docs/workspace-trust.md)', () => {
  it('untrusted TypeScript: tsserver.path is pinned to the task host TypeScript whatever the browser sent; plugins and npmLocation are dropped', () => {
    const { server } = initialize(new BrokerHarness(), { language: 'typescript' });
    expect(forwardedOptions(server)).toEqual({
      tsserver: { path: TRUSTED_TOOLS.tools.tsserver, logVerbosity: 'off' },
      preferences: { quotePreference: 'single' },
    });
  });

  it('trusted TypeScript: initialize reaches the server exactly as the browser sent it', () => {
    const { server } = initialize(new BrokerHarness(), { language: 'typescript', trusted: true });
    expect(forwardedOptions(server)).toEqual(BROWSER_INIT_OPTIONS);
  });

  it('untrusted TypeScript without a task-host TypeScript: initialize is refused and nothing reaches the server', () => {
    const { server, browser } = initialize(new BrokerHarness(), { language: 'typescript', pins: null });
    expect(server).toEqual([]);
    expect(browser).toEqual([{ jsonrpc: '2.0', id: 'i1', error: { code: expect.any(Number), message: refusalOf('typescript') } }]);
  });

  it('untrusted Kotlin with Gradle/Maven build files: initialize is refused (the import runs build scripts); without them, or trusted, it is forwarded', () => {
    const gradle = { buildFiles: ['settings.gradle.kts'] };
    const refused = initialize(new BrokerHarness(), { language: 'kotlin', pins: gradle });
    expect(refused.server).toEqual([]);
    expect(refused.browser).toEqual([{ jsonrpc: '2.0', id: 'i1', error: { code: expect.any(Number), message: refusalOf('kotlin') } }]);
    expect(initialize(new BrokerHarness(), { language: 'kotlin', pins: { buildFiles: [] } }).server.map((m) => m.method)).toEqual(['initialize']);
    expect(initialize(new BrokerHarness(), { language: 'kotlin', trusted: true, pins: gradle }).server.map((m) => m.method)).toEqual(['initialize']);
  });

  it('untrusted rust-analyzer: build scripts, proc macros and check-on-save are off in initialize and in every configuration answer', () => {
    const h = new BrokerHarness();
    const { lease, server } = initialize(h, { language: 'rust', options: { cargo: { buildScripts: { enable: true }, features: 'all' } } });
    expect(forwardedOptions(server)).toEqual({
      cargo: { buildScripts: { enable: false, overrideCommand: null }, features: 'all' },
      procMacro: { enable: false },
      checkOnSave: false,
      check: { overrideCommand: null },
    });
    const initId = server[0]?.id as number;
    h.fromServer(lease, res(initId, { capabilities: {} }));
    h.fromBrowser('tab', notif('initialized', {}));
    h.handle({ type: 'settingsChanged', userId: 'u1', settings: settingsWith({ rust: { 'rust-analyzer': { procMacro: { enable: true } } } }) });
    const fx = h.fromServer(lease, req(9, 'workspace/configuration', { items: [{ section: 'rust-analyzer' }] }));
    expect(toServer(fx, lease)).toEqual([{ jsonrpc: '2.0', id: 9, result: [RUST_ANALYZER_UNTRUSTED] }]);
  });

  it('untrusted pyright: python.pythonPath is the task host interpreter, even when settings point into the workspace; trusted keeps the setting', () => {
    const settings = settingsWith({ python: { python: { pythonPath: '/workspace/.venv/bin/python', analysis: { typeCheckingMode: 'strict' } } } });
    const ask = (trusted: boolean) => {
      const h = new BrokerHarness();
      const lease = h.readyLease('tab', { language: 'python', settings, trusted });
      const fx = h.fromServer(lease, req(5, 'workspace/configuration', { items: [{ section: 'python' }, { section: 'python.pythonPath' }] }));
      return (toServer(fx, lease)[0] as unknown as { result: unknown[] }).result;
    };
    expect(ask(false)).toEqual([{ pythonPath: TRUSTED_TOOLS.tools.python, analysis: { typeCheckingMode: 'strict' } }, TRUSTED_TOOLS.tools.python]);
    expect(ask(true)).toEqual([{ pythonPath: '/workspace/.venv/bin/python', analysis: { typeCheckingMode: 'strict' } }, '/workspace/.venv/bin/python']);
  });

  it("the task host upstream is opened with the task trust, never the browser's", () => {
    const h = new BrokerHarness();
    expect(ofType(h.connect('a', { trusted: true }), 'openUpstream')[0]?.trustWorkspaceTools).toBe(true);
    expect(ofType(h.connect('b', { session: 's2' }), 'openUpstream')[0]?.trustWorkspaceTools).toBe(false);
  });

  it('a trust change reaches the next server start: a detached lease of the other trust is released, not reattached', () => {
    const h = new BrokerHarness();
    const untrusted = h.readyLease('tab1', { language: 'typescript' });
    h.closeBrowser('tab1');
    const fx = h.connect('tab2', { language: 'typescript', hint: untrusted, trusted: true });
    expect(logs(fx)).toContain('release/trust_changed');
    const opened = ofType(fx, 'openUpstream');
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ trustWorkspaceTools: true });
    expect(opened[0]?.leaseId).not.toBe(untrusted);
    expect(h.broker.lease(untrusted)?.phase).toBe('releasing');
    // The same trust still reattaches, as before.
    h.closeBrowser('tab2');
    const again = h.connect('tab3', { language: 'typescript', trusted: true });
    expect(ofType(again, 'openUpstream')).toEqual([]);
    expect(browserCloses(again)).toEqual([]);
  });

  it.each([
    ['a build file list that is not a list', { buildFiles: 'settings.gradle.kts' }],
    ['a tool path that is not a string', { tools: { tsserver: 7 } }],
    ['more build files than agentctl ever reports', { buildFiles: Array.from({ length: 17 }, (_, i) => `m${i}/build.gradle`) }],
  ])('a ready frame with %s in its pins ends the lease (1007 upstream): a guard never runs on pins it cannot read', (_what, pins) => {
    const h = new BrokerHarness();
    const lease = openedLease(h.connect('tab', { language: 'kotlin' }));
    const fx = h.hostReady(lease, 'kotlin', pins);
    expect(ofType(fx, 'closeUpstream')).toEqual([{ type: 'closeUpstream', leaseId: lease, code: 1007 }]);
    expect(toBrowser(fx, 'tab').filter((m) => 'status' in m && m.status === 'ready')).toEqual([]);
    expect(logs(fx)).toEqual(['exit/upstream_lost']);
  });
});
