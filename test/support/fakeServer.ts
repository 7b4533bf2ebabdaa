import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeScript } from '../fixtures/fake-lsp-server/script.js';
import { ensureBuilt, repoRoot } from './build.js';

export const fakeServerBundle = join(repoRoot, 'test/fixtures/dist/fake-lsp-server.mjs');

/**
 * Installs the fake server as `name` (kotlin-lsp, rust-analyzer, ...) in `binDir`: a shell shim, so
 * the task host resolves and launches it exactly like a real binary on its PATH.
 */
export function installFakeServer(binDir: string, name: string): string {
  ensureBuilt('fake-lsp-server');
  mkdirSync(binDir, { recursive: true });
  const shim = join(binDir, name);
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${fakeServerBundle}" "$@"\n`);
  chmodSync(shim, 0o755);
  // A real typescript-language-server install has its TypeScript next to it; an untrusted task pins
  // tsserver.path to that one (docs/workspace-trust.md), so the fake gets one too.
  const typescript = join(binDir, '..', 'node_modules', 'typescript');
  if (name === 'typescript-language-server' && !existsSync(typescript)) {
    mkdirSync(join(typescript, '..'), { recursive: true });
    symlinkSync(join(repoRoot, 'node_modules/typescript'), typescript);
  }
  return shim;
}

export function writeScript(dir: string, script: FakeScript): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `script-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(path, JSON.stringify(script));
  return path;
}

export interface LoggedMessage {
  at: number;
  pid: number;
  message: Record<string, unknown> & { method?: string; params?: any; id?: unknown };
}

/**
 * What the fake server received, in order. A line it is still writing (no newline yet) is left for
 * the next read: parsed half-written, it failed a browser test in CI ("Unterminated string in JSON").
 */
export function readLog(path: string): LoggedMessage[] {
  if (!existsSync(path)) return [];
  const lines = readFileSync(path, 'utf8').split('\n');
  // The last piece is either empty (the log ends with a newline) or a line not yet finished.
  lines.pop();
  return lines.filter(Boolean).map((line) => JSON.parse(line) as LoggedMessage);
}

export function methodsReceived(path: string): string[] {
  return readLog(path)
    .map((l) => l.message.method)
    .filter((m): m is string => typeof m === 'string');
}

export const KOTLIN_MAIN = 'fun main() {\n    println("hello")\n}\n';

/** A workspace folder with `src/Main.kt` (and any `extra` files), as the Kotlin suites use it. */
export function writeKotlinWorkspace(dir: string, extra: Record<string, string | Uint8Array> = {}): string {
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'src/Main.kt'), KOTLIN_MAIN);
  for (const [path, content] of Object.entries(extra)) writeFileSync(join(dir, path), content);
  return dir;
}
