import { ManualClock } from '@kandev/kit';
import { describe, expect, it, vi } from 'vitest';
import { OutputBuffer, outputText } from './outputBuffer.js';
import { MESSAGE_TOAST_MS, ServerMessages } from './serverMessages.js';
import { createServerWindow, type ServerWindowEnv } from './serverWindow.js';

const source = { sessionId: 's1', language: 'go' as const };
const WORKSPACE = { workspaceUri: 'file:///work/space', workspacePath: '/work/space', repoSubpaths: [] };

function setup() {
  const clock = new ManualClock(0);
  const messages = new ServerMessages(clock);
  const openFile = vi.fn<ServerWindowEnv['openFile']>(async () => true);
  const openExternal = vi.fn<ServerWindowEnv['openExternal']>();
  const window = createServerWindow(source, { messages, openFile, openExternal });
  return { clock, messages, openFile, openExternal, window };
}

describe('showMessage toasts', () => {
  it('an error stays until dismissed; other severities go after MESSAGE_TOAST_MS on the clock', () => {
    const { clock, messages, window } = setup();
    window.showMessage({ type: 1, message: 'Invalid settings' });
    window.showMessage({ type: 3, message: 'Loaded' });
    expect(messages.getSnapshot().map((t) => [t.severity, t.text])).toEqual([
      ['error', 'Invalid settings'],
      ['info', 'Loaded'],
    ]);
    clock.advance(MESSAGE_TOAST_MS - 1);
    expect(messages.getSnapshot()).toHaveLength(2);
    clock.advance(1);
    expect(messages.getSnapshot().map((t) => t.text)).toEqual(['Invalid settings']);
    clock.advance(10 * MESSAGE_TOAST_MS);
    expect(messages.getSnapshot().map((t) => t.text)).toEqual(['Invalid settings']);
    messages.dismiss(messages.getSnapshot()[0]!.id);
    expect(messages.getSnapshot()).toEqual([]);
  });

  it('a repeated message collapses into one toast with a count, and its time starts again', () => {
    const { clock, messages, window } = setup();
    window.showMessage({ type: 2, message: 'No module' });
    clock.advance(MESSAGE_TOAST_MS - 1);
    window.showMessage({ type: 2, message: 'No module' });
    window.showMessage({ type: 2, message: 'No module' });
    expect(messages.getSnapshot()).toEqual([expect.objectContaining({ text: 'No module', count: 3, severity: 'warning' })]);
    clock.advance(MESSAGE_TOAST_MS - 1);
    expect(messages.getSnapshot()).toHaveLength(1);
    clock.advance(1);
    expect(messages.getSnapshot()).toEqual([]);
    // Same text, other severity: another toast.
    window.showMessage({ type: 1, message: 'x' });
    window.showMessage({ type: 2, message: 'x' });
    expect(messages.getSnapshot().map((t) => t.count)).toEqual([1, 1]);
  });

  it('ignores a message without text', () => {
    const { messages, window } = setup();
    window.showMessage({ type: 1 });
    window.showMessage('nope');
    expect(messages.getSnapshot()).toEqual([]);
  });
});

describe('showMessageRequest', () => {
  it('answers with the very action item chosen, or null when dismissed or taken away', async () => {
    const { messages, window } = setup();
    const asked = window.showMessageRequest({ type: 2, message: 'Run go mod tidy?', actions: [{ title: 'Yes', id: 7 }, { title: 'No' }] });
    const [toast] = messages.getSnapshot();
    expect(toast).toMatchObject({ kind: 'request', actions: ['Yes', 'No'], severity: 'warning' });
    messages.choose(toast!.id, 0);
    await expect(asked.answer).resolves.toEqual({ title: 'Yes', id: 7 });
    expect(messages.getSnapshot()).toEqual([]);

    const dismissed = window.showMessageRequest({ type: 3, message: 'Q', actions: [{ title: 'A' }] });
    messages.dismiss(messages.getSnapshot()[0]!.id);
    await expect(dismissed.answer).resolves.toBeNull();

    const cancelled = window.showMessageRequest({ type: 3, message: 'Q2', actions: [{ title: 'A' }] });
    cancelled.cancel();
    await expect(cancelled.answer).resolves.toBeNull();
    expect(messages.getSnapshot()).toEqual([]);
  });

  it('a question does not time out like a message', () => {
    const { clock, messages, window } = setup();
    window.showMessageRequest({ type: 3, message: 'Q', actions: [{ title: 'A' }] });
    clock.advance(100 * MESSAGE_TOAST_MS);
    expect(messages.getSnapshot()).toHaveLength(1);
  });
});

describe('showDocument', () => {
  it('opens a workspace file at the selection start (1-based) and reports what the page did', async () => {
    const { openFile, window } = setup();
    const selection = { start: { line: 4, character: 2 }, end: { line: 4, character: 9 } };
    await expect(window.showDocument({ uri: 'file:///work/space/pkg/a.go', selection }, WORKSPACE).answer).resolves.toEqual({ success: true });
    expect(openFile).toHaveBeenCalledWith('pkg/a.go', { lineNumber: 5, column: 3 }, selection);
    openFile.mockResolvedValueOnce(false);
    await expect(window.showDocument({ uri: 'file:///work/space/missing.go' }, WORKSPACE).answer).resolves.toEqual({ success: false });
  });

  it.each([
    ['a file outside the workspace', 'file:///etc/passwd'],
    ['a sibling folder sharing the prefix', 'file:///work/space2/a.go'],
    ['javascript:', 'javascript:alert(1)'],
    ['data:', 'data:text/html,<script>1</script>'],
    ['a custom scheme', 'vscode://settings'],
  ])('refuses %s without asking or opening anything', async (_name, uri) => {
    const { messages, openFile, openExternal, window } = setup();
    await expect(window.showDocument({ uri, external: true }, WORKSPACE).answer).resolves.toEqual({ success: false });
    expect(messages.getSnapshot()).toEqual([]);
    expect(openFile).not.toHaveBeenCalled();
    expect(openExternal).not.toHaveBeenCalled();
  });

  it('opens an http(s) page only after the person agrees; declined is success:false', async () => {
    const { messages, openExternal, window } = setup();
    const agreed = window.showDocument({ uri: 'https://pkg.go.dev/fmt', external: true }, WORKSPACE);
    expect(openExternal).not.toHaveBeenCalled();
    const [toast] = messages.getSnapshot();
    expect(toast).toMatchObject({ kind: 'external', uri: 'https://pkg.go.dev/fmt' });
    messages.choose(toast!.id, 0);
    await expect(agreed.answer).resolves.toEqual({ success: true });
    expect(openExternal).toHaveBeenCalledWith('https://pkg.go.dev/fmt');

    const declined = window.showDocument({ uri: 'http://example.com/' }, WORKSPACE);
    messages.dismiss(messages.getSnapshot()[0]!.id);
    await expect(declined.answer).resolves.toEqual({ success: false });
    expect(openExternal).toHaveBeenCalledTimes(1);
  });
});

describe('OutputBuffer', () => {
  const line = (seq: number, text = `l${seq}`) => ({ seq, at: seq * 1000, source: 'log' as const, level: 'info' as const, text });

  it('merges the ready frame and live lines by number, never showing one twice; a new lease starts afresh', () => {
    const buffer = new OutputBuffer(3);
    buffer.useLease('L1');
    buffer.merge([line(1), line(2)]);
    buffer.merge([line(2), line(3)]);
    expect(buffer.getSnapshot().map((l) => l.seq)).toEqual([1, 2, 3]);
    buffer.merge([line(4)]);
    expect(buffer.getSnapshot().map((l) => l.seq)).toEqual([2, 3, 4]);
    buffer.useLease('L1');
    expect(buffer.getSnapshot()).toHaveLength(3);
    buffer.useLease('L2');
    expect(buffer.getSnapshot()).toEqual([]);
    buffer.merge([line(1, 'fresh')]);
    expect(buffer.getSnapshot().map((l) => l.text)).toEqual(['fresh']);
  });

  it('copies as a plain log with time, source and level', () => {
    expect(outputText([line(1, 'hello'), { seq: 2, at: 0, source: 'stderr', text: 'boom' }])).toBe(
      '[1970-01-01T00:00:01.000Z] [info] hello\n[1970-01-01T00:00:00.000Z] [stderr] boom',
    );
  });
});
