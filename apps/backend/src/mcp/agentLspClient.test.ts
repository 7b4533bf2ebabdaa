import { ManualClock } from '@kandev/kit';
import type { StatusFrame } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import type { BrowserEndpoint, BrowserFrame, LspRelay } from '../lsp/relay.js';
import { AgentLspClient, COLD_START_MS, REQUEST_TIMEOUT_MS } from './agentLspClient.js';

/** Stands where the broker stands: records what the client sends and answers as the test says. */
class BrokerStandIn implements LspRelay {
  endpoint!: BrowserEndpoint;
  readonly sent: Record<string, unknown>[] = [];

  attach(browser: BrowserEndpoint): void {
    this.endpoint = browser;
    browser.onFrame((frame: BrowserFrame) => {
      if (frame.kind === 'jsonrpc') this.sent.push(frame.message as Record<string, unknown>);
    });
    browser.resume();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }

  ready(): void {
    const frame = { status: 'ready', workspaceUri: 'file:///w' } as unknown as StatusFrame;
    this.endpoint.sendText(JSON.stringify(frame));
  }

  answer(id: unknown, result: unknown): void {
    this.endpoint.sendText(JSON.stringify({ jsonrpc: '2.0', id, result }));
  }

  lastRequest(method: string): Record<string, unknown> | undefined {
    return [...this.sent].reverse().find((m) => m.method === method);
  }
}

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function initializedClient(): Promise<{ client: AgentLspClient; broker: BrokerStandIn; clock: ManualClock }> {
  const clock = new ManualClock();
  const broker = new BrokerStandIn();
  const client = new AgentLspClient(broker, 's1', 'typescript', clock);
  broker.ready();
  await flush();
  broker.answer(broker.lastRequest('initialize')?.id, { capabilities: {} });
  await client.ready();
  return { client, broker, clock };
}

describe('AgentLspClient request bounds (on the backend clock)', () => {
  it('a cold server may take until COLD_START_MS after the lease started; then the request is cancelled at the server and fails', async () => {
    const { client, broker, clock } = await initializedClient();
    clock.advance(10_000);
    const outcome = client.request('textDocument/hover', {}).then(
      () => 'answered',
      (err: Error) => err.message,
    );
    await flush();
    const id = broker.lastRequest('textDocument/hover')?.id;
    clock.advance(COLD_START_MS - 10_000 - 1);
    await flush();
    expect(broker.sent.some((m) => m.method === '$/cancelRequest')).toBe(false);
    clock.advance(1);
    expect(await outcome).toBe('the typescript server did not answer textDocument/hover within 80 s');
    expect(broker.lastRequest('$/cancelRequest')?.params).toEqual({ id });
  });

  it('a warm server gets REQUEST_TIMEOUT_MS; an answer in time clears the timer', async () => {
    const { client, broker, clock } = await initializedClient();
    clock.advance(COLD_START_MS);
    const late = client.request('textDocument/definition', {}).catch((err: Error) => err.message);
    await flush();
    clock.advance(REQUEST_TIMEOUT_MS - 1);
    const answered = client.request('textDocument/hover', {});
    await flush();
    broker.answer(broker.lastRequest('textDocument/hover')?.id, { contents: 'x' });
    expect(await answered).toEqual({ contents: 'x' });
    clock.advance(1);
    expect(await late).toBe('the typescript server did not answer textDocument/definition within 30 s');
    // The answered request left no timer behind to cancel it later.
    clock.advance(REQUEST_TIMEOUT_MS);
    await flush();
    expect(broker.sent.filter((m) => m.method === '$/cancelRequest')).toHaveLength(1);
  });
});
