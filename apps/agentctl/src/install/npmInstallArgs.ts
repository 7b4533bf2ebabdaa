/**
 * The arguments of agentctl's `npm install` of a recipe into `prefix`. --ignore-scripts: no pinned
 * package needs one, and a lifecycle script would be code from the registry running with the task's
 * credentials and spawning descendants we must then reap. The tests' preinstalled servers
 * (test/support/preinstalledServers.ts) install with the same arguments.
 */
export function npmInstallArgs(prefix: string, packages: readonly string[], logLevel: 'notice' | 'error' = 'notice'): string[] {
  return ['install', '--prefix', prefix, '--no-audit', '--no-fund', '--no-update-notifier', '--ignore-scripts', `--loglevel=${logLevel}`, ...packages];
}
