import { type Clock, type Disposable, after, systemClock } from '@kandev/kit';
import { CloseCode, MAX_INSTALL_ERROR_BYTES, type HostStatusFrame } from '@kandev/protocol';
import type { CatalogLanguage } from '../catalog/catalog.js';
import type { LogEvent, LogFields, LogLevel } from '../base/log.js';
import { isRepositoryControlled } from '../resolve/workspaceGuard.js';
import { isAbsoluteFor } from '../env/taskEnv.js';
import type { InstallLanguageServer, InstallOutcome } from '../install/seam.js';
import { OutputTail, tailUtf8 } from './outputTail.js';

/** What the install phase needs from its stream; the stream stays the one that closes sockets. */
export interface InstallPhaseContext {
  language: CatalogLanguage;
  env: Record<string, string>;
  platform: NodeJS.Platform;
  workspaceReal: string;
  signal: AbortSignal;
  /** Sends a status frame; false when the peer could not take it. */
  send(frame: HostStatusFrame): Promise<boolean>;
  /** True once the stream ended (client gone, teardown): results are then discarded. */
  isClosed(): boolean;
  log(level: LogLevel, event: LogEvent, fields?: LogFields): void;
  /** Paces the installer's progress lines; default the system clock. */
  clock?: Clock;
}

export type InstallPhaseResult =
  | { kind: 'launch'; binaryPath: string }
  | { kind: 'close'; code: CloseCode }
  /** A status frame could not be written: the socket is broken. */
  | { kind: 'drop'; frame: string }
  /** The stream ended meanwhile; nothing more to do. */
  | { kind: 'ended' };

/**
 * installing -> installer -> installed | install_failed (docs/architecture.md section 3). The installing frame goes
 * out before any install work, and nothing is installed for a peer that cannot take it.
 */
export async function runInstallPhase(ctx: InstallPhaseContext, installer: InstallLanguageServer): Promise<InstallPhaseResult> {
  const language = ctx.language.id;
  if (!(await ctx.send({ status: 'installing', language }))) return { kind: 'drop', frame: 'installing' };
  if (ctx.isClosed()) return { kind: 'ended' };
  const tail = new OutputTail(MAX_INSTALL_ERROR_BYTES);
  const progress = new InstallProgress((detail) => void ctx.send({ status: 'installing', language, detail }), ctx.clock ?? systemClock);
  ctx.log('info', 'install_begin');
  let outcome: InstallOutcome;
  try {
    outcome = await installer({
      language,
      env: ctx.env,
      platform: ctx.platform,
      signal: ctx.signal,
      onOutput: (c) => {
        tail.append(c);
        progress.line(c);
      },
    });
  } catch (err) {
    // An installer defect still ends as an install failure with what it printed.
    const message = err instanceof Error ? err.message : String(err);
    outcome = { ok: false, error: { code: 'failed', message: [tail.value().trimEnd(), message].filter((s) => s.length > 0).join('\n') } };
  } finally {
    progress.end();
  }
  if (ctx.isClosed()) {
    ctx.log('info', 'install_cancelled');
    return { kind: 'ended' };
  }
  if (!outcome.ok) {
    const failure = outcome.error;
    switch (failure.code) {
      case 'failed':
        ctx.log('warn', 'install_failed', { error: failure.message });
        return failed(ctx, failure.message);
      case 'no_installer':
        ctx.log('info', 'stream_refused', { reason: 'no_installer', guidance: failure.guidance });
        return { kind: 'close', code: CloseCode.NoInstaller };
      case 'cancelled':
        // Cancelled without this stream asking (a shared install was torn down): the instance is stopping.
        ctx.log('info', 'install_cancelled');
        return { kind: 'close', code: CloseCode.GoingAway };
    }
  }
  const binaryPath = outcome.value;
  // The same S57 rule as resolution: never launch something the repository controls.
  if (!isAbsoluteFor(binaryPath, ctx.platform) || isRepositoryControlled(binaryPath, ctx.workspaceReal, ctx.platform)) {
    ctx.log('warn', 'install_failed', { error: 'installer returned an unusable path', path: binaryPath });
    return failed(ctx, 'the installer did not publish a usable language server');
  }
  ctx.log('info', 'install_done', { path: binaryPath });
  if (!(await ctx.send({ status: 'installed', language }))) return { kind: 'drop', frame: 'installed' };
  return { kind: 'launch', binaryPath };
}

async function failed(ctx: InstallPhaseContext, detail: string): Promise<InstallPhaseResult> {
  await ctx.send({ status: 'install_failed', language: ctx.language.id, error: tailUtf8(detail, MAX_INSTALL_ERROR_BYTES) });
  return { kind: 'close', code: CloseCode.InstallFailed };
}

/** How often the browser hears the installer's latest line: often enough to look alive, never a flood. */
const PROGRESS_INTERVAL_MS = 500;
const MAX_PROGRESS_LINE_CHARS = 300;

/** Forwards the installer's newest output line as `installing` frames, throttled. */
class InstallProgress {
  private latest: string | undefined;
  private timer: Disposable | undefined;
  private ended = false;

  constructor(
    private readonly send: (detail: string) => void,
    private readonly clock: Clock,
  ) {}

  line(chunk: string): void {
    const last = chunk
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter((l) => l.length > 0)
      .pop();
    if (!last || this.ended) return;
    this.latest = last.slice(0, MAX_PROGRESS_LINE_CHARS);
    this.timer ??= after(this.clock, PROGRESS_INTERVAL_MS, () => this.flush());
  }

  private flush(): void {
    this.timer = undefined;
    if (this.ended || this.latest === undefined) return;
    this.send(this.latest);
    this.latest = undefined;
  }

  end(): void {
    this.ended = true;
    this.timer?.dispose();
  }
}
