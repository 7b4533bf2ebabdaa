import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fail, messageOf, ok, type Result } from '../../base/result.js';

/** Where the agentctl runtime appears inside a task container. */
export const CONTAINER_RUNTIME_DIR = '/opt/kandev';
export const CONTAINER_BIN_DIR = `${CONTAINER_RUNTIME_DIR}/bin`;
export const CONTAINER_NODE = `${CONTAINER_RUNTIME_DIR}/node`;
export const CONTAINER_AGENTCTL = `${CONTAINER_RUNTIME_DIR}/agentctl.mjs`;
/** The file watcher's native addon, which the bundle loads from beside itself. */
export const WATCHER_ADDON_NAME = 'parcel-watcher.node';
export const CONTAINER_WORKSPACE = '/workspace';

export interface RuntimeMount {
  hostPath: string;
  containerPath: string;
  readOnly: boolean;
}

export interface RuntimeSources {
  /** A folder of the backend's own (under KANDEV_HOME) where the shims are written. */
  supportDir: string;
  /** The backend's Node.js binary (process.execPath). */
  nodeBinary: string;
  /** apps/agentctl/dist/agentctl.mjs: one file, every dependency inlined. */
  agentctlBundle: string;
}

/**
 * No registry can be reached, so agentctl is not baked into an image: the one-file agentctl bundle,
 * the backend's own Node.js binary and npm are bind-mounted read-only, and small shell shims put
 * `node`, `npm` and `npx` on the container's PATH (language servers start with `#!/usr/bin/env node`,
 * and the npm installer runs npm inside the container). The host binary needs a glibc Linux image.
 *
 * Every source is checked here: a bind mount of a missing path must never reach Docker.
 */
export function runtimeMounts(sources: RuntimeSources): Result<RuntimeMount[], string> {
  if (!isFile(sources.nodeBinary)) return fail(`the Node.js binary to mount is missing: ${sources.nodeBinary}`);
  if (!isFile(sources.agentctlBundle)) return fail(`the agentctl bundle is missing: ${sources.agentctlBundle} (run npm run build)`);
  const bin = join(sources.supportDir, 'bin');
  try {
    mkdirSync(bin, { recursive: true });
    for (const [name, body] of Object.entries(shims())) writeShim(join(bin, name), `#!/bin/sh\n${body}\n`);
  } catch (err) {
    return fail(`cannot write the container shims in ${bin}: ${messageOf(err)}`);
  }
  const mounts: RuntimeMount[] = [
    { hostPath: sources.nodeBinary, containerPath: CONTAINER_NODE, readOnly: true },
    { hostPath: bin, containerPath: CONTAINER_BIN_DIR, readOnly: true },
    { hostPath: sources.agentctlBundle, containerPath: CONTAINER_AGENTCTL, readOnly: true },
  ];
  // Without the addon (a platform with no prebuild) agentctl still runs and polls what is in view.
  const addon = join(dirname(sources.agentctlBundle), WATCHER_ADDON_NAME);
  if (isFile(addon)) mounts.push({ hostPath: addon, containerPath: `${CONTAINER_RUNTIME_DIR}/${WATCHER_ADDON_NAME}`, readOnly: true });
  const npm = findNpm(sources.nodeBinary);
  if (npm) mounts.push({ hostPath: npm, containerPath: `${CONTAINER_RUNTIME_DIR}/npm`, readOnly: true });
  return ok(mounts);
}

function shims(): Record<string, string> {
  return {
    node: `exec ${CONTAINER_NODE} "$@"`,
    npm: `exec ${CONTAINER_NODE} ${CONTAINER_RUNTIME_DIR}/npm/bin/npm-cli.js "$@"`,
    npx: `exec ${CONTAINER_NODE} ${CONTAINER_RUNTIME_DIR}/npm/bin/npx-cli.js "$@"`,
  };
}

/**
 * The shim folder is shared by every running container: rewrite a shim only when it changed, and
 * then through a rename, so a container never runs a half-written file.
 */
function writeShim(path: string, content: string): void {
  if (existsSync(path) && readFileSync(path, 'utf8') === content) return;
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, content);
  chmodSync(temp, 0o755);
  renameSync(temp, path);
}

/** npm ships beside Node.js: <prefix>/bin/node and <prefix>/lib/node_modules/npm. */
function findNpm(nodeBinary: string): string | undefined {
  const candidate = join(dirname(dirname(nodeBinary)), 'lib/node_modules/npm');
  return existsSync(join(candidate, 'bin/npm-cli.js')) ? candidate : undefined;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
