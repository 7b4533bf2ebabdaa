/** The `ready` status frame a browser gets when its attachment runs on a server (first, resumed or restarted). */
import type { ReadyFrame, WorkspaceIdentity } from '@kandev/protocol';
import type { Attachment, Lease } from './lease.js';

export function readyFrame(lease: Lease, host: WorkspaceIdentity, attachment: Attachment): ReadyFrame {
  const frame: ReadyFrame = {
    status: 'ready',
    lease: lease.id,
    resumed: attachment.resumed,
    language: lease.language,
    workspaceUri: host.workspaceUri,
    workspacePath: host.workspacePath,
    repoSubpaths: [...host.repoSubpaths],
  };
  if (lease.trustedTools?.network) frame.network = lease.trustedTools.network;
  if (attachment.resumed) {
    frame.initializeResult = lease.init.result;
    frame.registrations = lease.registrations.list();
    frame.progress = lease.progress.snapshot();
  }
  if (lease.output.size > 0) frame.output = lease.output.recent();
  return frame;
}
