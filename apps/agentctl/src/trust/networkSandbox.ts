import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { LaunchCommand } from '../process/launchCommand.js';

/**
 * Untrusted language servers run without network (docs/workspace-trust.md): on Linux, in a network
 * namespace of their own through bubblewrap (`bwrap --unshare-net`), which has a loopback device
 * and nothing else, so a schema URL in a repository file (a YAML `$schema` modeline, a JSON
 * `$schema`), a documentation lookup or anything a server's dependency fetches reaches no host,
 * not even this one. The file system, the process tree and stdio stay as they are: only the
 * network is taken away. Generic, not per language: every untrusted server gets it.
 *
 * Where it cannot be had (not Linux, bubblewrap not installed, or the host refuses new
 * namespaces, as an unprivileged container may), the server runs as before and its ready frame
 * says `network: "unavailable"`, so the page can say that this host could not cut it off.
 */
export type NetworkSandbox = { network: 'off'; wrap(command: LaunchCommand): LaunchCommand } | { network: 'unavailable'; why: string };

/** Fixed places only: a PATH lookup could be steered by the task environment. */
const BWRAP_PATHS = ['/usr/bin/bwrap', '/bin/bwrap', '/usr/local/bin/bwrap'];

export interface SandboxProbe {
  platform: NodeJS.Platform;
  exists(path: string): boolean;
  /** Runs `bwrap args`; true when it exited 0. */
  runs(bwrap: string, args: string[]): boolean;
}

const realProbe = (platform: NodeJS.Platform): SandboxProbe => ({
  platform,
  exists: existsSync,
  runs: (bwrap, args) => spawnSync(bwrap, args, { stdio: 'ignore', timeout: 10_000 }).status === 0,
});

/**
 * The ways to get a network namespace, tried in this order:
 * - `net`: a new network namespace only. Works where bwrap may make one directly: a desktop or
 *   server (bwrap unprivileged makes its own user namespace for it), or a process with
 *   `CAP_SYS_ADMIN`.
 * - `user+net`: a user namespace first, then the network one inside it. A container's root without
 *   `CAP_SYS_ADMIN` (Local Docker) is refused the plain form even when seccomp allows it, and gets
 *   the network namespace as the owner of a user namespace of its own. Inside it the server keeps
 *   its uid; only its own uid is mapped, and bwrap drops every capability, so it has no more rights
 *   than before, only less network.
 */
export const SANDBOX_MODES = ['net', 'user+net'] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

/** The wrapper's own arguments before the server's command line. */
export function bwrapArgs(mode: SandboxMode = 'net'): string[] {
  // A new network namespace (loopback only); the whole file system as it is; the server dies
  // with bwrap, which dies with its parent (agentctl's reaping signals the whole group anyway).
  return [...(mode === 'user+net' ? ['--unshare-user'] : []), '--unshare-net', '--dev-bind', '/', '/', '--die-with-parent', '--'];
}

export function findNetworkSandbox(probe: SandboxProbe): NetworkSandbox {
  if (probe.platform !== 'linux') return { network: 'unavailable', why: 'not_linux' };
  const bwrap = BWRAP_PATHS.find((p) => probe.exists(p));
  if (!bwrap) return { network: 'unavailable', why: 'bwrap_missing' };
  // Installed is not enough: a container without the right to make namespaces refuses it.
  const mode = SANDBOX_MODES.find((m) => probe.runs(bwrap, [...bwrapArgs(m), '/bin/true']));
  if (!mode) return { network: 'unavailable', why: 'namespaces_refused' };
  return {
    network: 'off',
    wrap: (command) => ({ command: bwrap, args: [...bwrapArgs(mode), command.command, ...command.args], windowsVerbatimArguments: false }),
  };
}

const cache = new Map<NodeJS.Platform, NetworkSandbox>();

/** The host's sandbox, probed once per agentctl process. */
export function networkSandbox(platform: NodeJS.Platform): NetworkSandbox {
  let found = cache.get(platform);
  if (!found) cache.set(platform, (found = findNetworkSandbox(realProbe(platform))));
  return found;
}
