import { readEnvelope, scanJsonNesting } from '@kandev/protocol';
import { describe, expect, it } from 'vitest';
import { StreamAccount } from './streamAccount.js';

function observe(account: StreamAccount, message: object): void {
  const text = JSON.stringify({ jsonrpc: '2.0', ...message });
  account.observe(readEnvelope(scanJsonNesting(text))!, text);
}

describe("StreamAccount: what a stream's server has been told", () => {
  it('tracks open documents at their last version and the highest request id', () => {
    const account = new StreamAccount();
    observe(account, { id: 1, method: 'initialize', params: {} });
    observe(account, { method: 'textDocument/didOpen', params: { textDocument: { uri: 'file:///w/a.ts', languageId: 'typescript', version: 1, text: '' } } });
    observe(account, { method: 'textDocument/didOpen', params: { textDocument: { uri: 'file:///w/b.ts', languageId: 'typescript', version: 4, text: '' } } });
    observe(account, { method: 'textDocument/didChange', params: { textDocument: { uri: 'file:///w/a.ts', version: 2 }, contentChanges: [{ text: 'x' }] } });
    observe(account, { id: 17, method: 'textDocument/hover', params: {} });
    observe(account, { id: 'not-a-number', method: 'textDocument/hover', params: {} });
    // A response to a server request carries an id but no method: not one of ours.
    observe(account, { id: 99, result: null });
    observe(account, { method: 'textDocument/didClose', params: { textDocument: { uri: 'file:///w/b.ts' } } });
    expect(account.openDocuments()).toEqual([{ uri: 'file:///w/a.ts', version: 2 }]);
    expect(account.maxRequestId).toBe(17);
  });
});
