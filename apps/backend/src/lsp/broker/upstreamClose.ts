/**
 * What a lease's end means to its browser when the task-host stream goes away without a release.
 * agentctl's own codes pass through (the browser has copy for each); a transport that died
 * (1006 and anything unknown, or a plain 1000 nobody asked for) is 4009: the server may still run.
 */
import { CloseCode } from '@kandev/protocol';
import type { BrowserCloseCode, EndReason } from './types.js';

export function classifyUpstreamClose(code: number): { reason: EndReason; browserCode: BrowserCloseCode } {
  switch (code) {
    case CloseCode.ServerExited:
      return { reason: 'server_exit', browserCode: CloseCode.ServerExited };
    case CloseCode.BinaryMissingInstallable:
    case CloseCode.InstallFailed:
    case CloseCode.NoInstaller:
    case CloseCode.StartFailed:
      return { reason: 'start_failed', browserCode: code };
    case CloseCode.Unavailable:
    case CloseCode.GoingAway:
      return { reason: 'task_host_unavailable', browserCode: code };
    default:
      return { reason: 'upstream_lost', browserCode: CloseCode.TransportFailure };
  }
}
