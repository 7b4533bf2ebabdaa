import {
  DEFAULT_SETTINGS,
  MAX_RETAINED_LEASE_STATE_BYTES,
  MAX_SERVER_OUTPUT_BYTES,
  MAX_SERVER_OUTPUT_LINES,
  MAX_SERVER_OUTPUT_LINE_CHARS,
  type ServerOutputLine,
} from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import { BrokerHarness, notif, ofType, openedLease, req, statusFrames, T0, toBrowser, toServer, WORKSPACE } from './testkit.js';

const log = (message: string, type = 3) => notif('window/logMessage', { type, message });
const outputOf = (frames: Array<Record<string, unknown>>) => frames.filter((f) => f.status === 'server_output').flatMap((f) => f.lines as ServerOutputLine[]);

describe('server output kept with the lease', () => {
  it('a logMessage reaches the attached tab as a numbered server_output line stamped on the broker clock, never relayed as is', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    h.now = T0 + 5_000;
    const fx = h.fromServer(lease, log('Loading packages', 3));
    expect(toBrowser(fx, 'tab')).toEqual([
      { status: 'server_output', lines: [{ seq: 1, at: T0 + 5_000, source: 'log', level: 'info', text: 'Loading packages' }] },
    ]);
    h.now += 1;
    const trace = h.fromServer(lease, notif('$/logTrace', { message: 'Sending request textDocument/hover', verbose: 'Params: {}' }));
    expect(outputOf(statusFrames(trace, 'tab'))).toEqual([{ seq: 2, at: T0 + 5_001, source: 'trace', text: 'Sending request textDocument/hover\nParams: {}' }]);
    // Shapes without text are dropped rather than shown as "undefined".
    expect(toBrowser(h.fromServer(lease, notif('window/logMessage', { type: 1 })), 'tab')).toEqual([]);
  });

  it('lines that come while detached (log and stderr) are kept and handed to the tab that reattaches, in order, with their times', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    h.fromServer(lease, log('before the reload'));
    h.closeBrowser('tab');
    // The wiring must not drop these unparsed for a detached lease, as it does other notifications.
    expect(h.broker.dropsServerNotification(lease, 'window/logMessage')).toBe(false);
    expect(h.broker.dropsServerNotification(lease, '$/logTrace')).toBe(false);
    expect(h.broker.dropsServerNotification(lease, 'window/showMessage')).toBe(true);
    h.now += 60_000;
    expect(h.fromServer(lease, log('config file could not be parsed', 1))).toEqual([]);
    h.now += 1_000;
    expect(h.hostStatus(lease, { status: 'server_stderr', lines: ['panic: boom', 42, ''] })).toEqual([]);

    const back = h.connect('tab-2', { hint: lease });
    const [ready] = statusFrames(back, 'tab-2');
    expect(ready).toMatchObject({ status: 'ready', resumed: true, lease });
    expect(ready?.output).toEqual([
      { seq: 1, at: T0, source: 'log', level: 'info', text: 'before the reload' },
      { seq: 2, at: T0 + 60_000, source: 'log', level: 'error', text: 'config file could not be parsed' },
      { seq: 3, at: T0 + 61_000, source: 'stderr', text: 'panic: boom' },
    ]);
    // Live stderr goes to the attached tab at once.
    expect(outputOf(statusFrames(h.hostStatus(lease, { status: 'server_stderr', lines: ['next'] }), 'tab-2'))).toEqual([
      { seq: 4, at: T0 + 61_000, source: 'stderr', text: 'next' },
    ]);
  });

  it('keeps at most MAX_SERVER_OUTPUT_LINES, dropping the oldest, and numbers on', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    h.closeBrowser('tab');
    const total = MAX_SERVER_OUTPUT_LINES + 25;
    for (let i = 1; i <= total; i++) {
      h.now += 1;
      h.fromServer(lease, log(`line ${i}`));
    }
    const output = statusFrames(h.connect('back', { hint: lease }), 'back')[0]?.output as ServerOutputLine[];
    expect(output).toHaveLength(MAX_SERVER_OUTPUT_LINES);
    expect(output[0]).toMatchObject({ seq: 26, text: 'line 26' });
    expect(output.at(-1)).toMatchObject({ seq: total, text: `line ${total}`, at: h.now });
  });

  it('bounds the characters kept (long lines cut, oldest dropped) well inside the retained-state limit', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    h.closeBrowser('tab');
    const before = h.broker.lease(lease)!.retainedBytes;
    for (let i = 0; i < 200; i++) h.fromServer(lease, log(`${i}:${'x'.repeat(100_000)}`));
    const output = statusFrames(h.connect('back', { hint: lease }), 'back')[0]?.output as ServerOutputLine[];
    for (const line of output) expect(line.text.length).toBe(MAX_SERVER_OUTPUT_LINE_CHARS + 1);
    expect(output.at(-1)?.text.startsWith('199:')).toBe(true);
    const kept = output.reduce((n, l) => n + l.text.length, 0);
    expect(kept).toBeLessThanOrEqual(MAX_SERVER_OUTPUT_BYTES);
    expect(kept).toBeGreaterThan(MAX_SERVER_OUTPUT_BYTES - 2 * MAX_SERVER_OUTPUT_LINE_CHARS);
    const retained = h.broker.lease(lease)!.retainedBytes;
    expect(retained - before).toBeLessThanOrEqual(MAX_SERVER_OUTPUT_BYTES);
    expect(retained).toBeLessThan(MAX_RETAINED_LEASE_STATE_BYTES);
  });

  it('outlives a crash restart: the new process adds to the same Output', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    h.fromServer(lease, log('first process'));
    h.hostStatus(lease, { status: 'server_exited', language: 'go', stderrTail: 'fatal' });
    h.upstreamClosed(lease, 4006);
    h.advance(1_000);
    h.hostReady(lease);
    const ids = toServer(h.all, lease).filter((m) => m.method === 'initialize');
    const restartInit = ids.at(-1)!;
    const answered = h.fromServer(lease, { jsonrpc: '2.0', id: restartInit.id!, result: { capabilities: {} } });
    const ready = statusFrames(answered, 'tab').find((f) => f.status === 'ready');
    expect((ready?.output as ServerOutputLine[]).map((l) => l.text)).toEqual(['first process']);
  });
});

describe('trace level per language', () => {
  const verbose = { ...DEFAULT_SETTINGS, lsp_trace_levels: { go: 'verbose' as const } };

  it("the owner's level replaces the initialize trace; without one the browser's params stay as sent", () => {
    const h = new BrokerHarness();
    const lease = openedLease(h.connect('tab', { settings: verbose }));
    h.hostReady(lease);
    const [init] = toServer(
      h.fromBrowser('tab', req('i', 'initialize', { capabilities: {}, trace: 'off', workspaceFolders: [{ uri: WORKSPACE.workspaceUri, name: 'w' }] })),
    );
    expect(init?.params).toMatchObject({ trace: 'verbose' });

    const plain = new BrokerHarness();
    const other = openedLease(plain.connect('tab'));
    plain.hostReady(other);
    const [asSent] = toServer(plain.fromBrowser('tab', req('i', 'initialize', { capabilities: {}, trace: 'messages' })));
    expect(asSent?.params).toEqual({ capabilities: {}, trace: 'messages' });
  });

  it('a changed level reaches running servers of that language as $/setTrace, once, attached or not', () => {
    const h = new BrokerHarness();
    const lease = h.readyLease('tab');
    const python = h.readyLease('py', { language: 'python' });
    h.closeBrowser('tab');
    const fx = h.handle({ type: 'settingsChanged', userId: 'u1', settings: verbose });
    expect(toServer(fx, lease).filter((m) => m.method === '$/setTrace')).toEqual([{ jsonrpc: '2.0', method: '$/setTrace', params: { value: 'verbose' } }]);
    expect(toServer(fx, python).filter((m) => m.method === '$/setTrace')).toEqual([]);
    expect(ofType(h.handle({ type: 'settingsChanged', userId: 'u1', settings: { ...verbose, show_status_bar: false } }), 'sendToUpstream')).toEqual([]);
    const off = h.handle({ type: 'settingsChanged', userId: 'u1', settings: DEFAULT_SETTINGS });
    expect(toServer(off, lease).filter((m) => m.method === '$/setTrace')).toEqual([{ jsonrpc: '2.0', method: '$/setTrace', params: { value: 'off' } }]);
  });
});
