/**
 * The browser-messages family: one frame from an attached browser (JSON-RPC, a control, or
 * garbage), routed to its lease's server or answered here. A pure reducer: (state, event, now in
 * the outbox) -> state changed in place + effects. Per-message hot path: no allocation of its own.
 */
import { BadInputCloseCode, RpcErrorCode } from '@kandev/protocol';
import { detach } from './attachments.js';
import { attachmentReady, routeBrowserMessage } from './browserRpc.js';
import { classify, errorResponse } from './jsonrpc.js';
import { endGracefully } from './leaseEnd.js';
import type { Outbox } from './outbox.js';
import { attachmentOf, contextFor, type BrokerState } from './state.js';
import type { BrowserFrameEvent } from './types.js';

export function reduceBrowserFrame(state: BrokerState, event: BrowserFrameEvent, out: Outbox): void {
  const { attachmentId, frame } = event;
  const found = attachmentOf(state, attachmentId);
  if (!found) return; // S33: a late frame of an ended generation is ignored
  const { lease, attachment } = found;
  if (lease.phase.kind === 'releasing') {
    if (frame.kind === 'jsonrpc') {
      const m = classify(frame.message);
      if (m.kind === 'request') {
        out.toBrowser(attachmentId, errorResponse(m.id, RpcErrorCode.RequestCancelled, 'the language server is being released'));
      }
    }
    return;
  }
  switch (frame.kind) {
    case 'invalid':
      out.closeBrowser(attachmentId, BadInputCloseCode.InvalidPayload);
      return detach(state, lease, 'invalid_frame', out);
    case 'status':
      return; // ours to send, never to receive
    case 'control':
      if (frame.frame.control === 'attachment-ready') return attachmentReady(contextFor(state, out), lease, attachment);
      if (frame.frame.control === 'release-stream') return; // the task-host hop's, never a browser's
      return endGracefully(state, lease, frame.frame.reason, frame.frame.reason, out);
    case 'jsonrpc':
      return routeBrowserMessage(contextFor(state, out), lease, attachment, frame.message, frame.raw);
  }
}
