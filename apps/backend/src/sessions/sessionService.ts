import { Emitter, type Disposable } from '@kandev/kit';
import type { ApiError, Session, Task } from '@kandev/protocol';
import type { ExecutorRegistry } from '../executors/registry.js';
import type { TaskHost, TaskHostExecutor } from '../executors/executor.js';
import { processIdentity, reapOrphanedHost } from '../executors/processIdentity.js';
import type { Logger } from '../base/log.js';
import { apiError, fail, messageOf, ok, type Result } from '../base/result.js';
import type { SessionRepository } from '../store/sessionRepository.js';
import type { TaskRepository } from '../store/taskRepository.js';

/** A failed start still leaves a session record: the attempt and its error are part of history. */
export interface StartFailure {
  error: ApiError;
  session?: Session;
}

export type SessionListener = (sessionId: string) => void;

/** A task host re-adopted at start-up. */
export interface RecoveredHost {
  sessionId: string;
  host: TaskHost;
}

/**
 * Session lifecycle: starting -> running -> stopped, or -> failed. Owns the live task hosts of this
 * backend process; the database only remembers what happened.
 */
export class SessionService {
  private readonly live = new Map<string, TaskHost>();
  private readonly starting = new Map<string, Promise<unknown>>();
  private readonly stopping = new Map<string, Promise<Session>>();
  /** A listener that throws is logged; the others and the session's lifecycle go on. */
  private readonly ended = new Emitter<string>((err) => this.listenerFailed(err));
  private readonly running = new Emitter<string>((err) => this.listenerFailed(err));
  private shuttingDown = false;

  constructor(
    private readonly tasks: TaskRepository,
    private readonly sessions: SessionRepository,
    private readonly executors: ExecutorRegistry,
    private readonly log: Logger,
    /** Variables added to a starting session's task environment (the MCP endpoint and its agent token). */
    private readonly sessionEnv?: (sessionId: string) => Record<string, string>,
  ) {}

  /**
   * Called once at start-up, before the backend listens: the task hosts a previous backend process
   * of this home left running (it crashed, was killed, or stopped for a restart) are re-adopted
   * when they are still the very ones it recorded; every other session of that process is marked
   * stopped and an agentctl it left behind is reaped, not left to run forever. Resolves with the
   * re-adopted sessions. `readopt` false (KANDEV_RESTART_GRACE_MS=0): nothing is, as before restarts were kept.
   */
  async recover(reapGraceMs: number, readopt = true): Promise<RecoveredHost[]> {
    const adopted: RecoveredHost[] = [];
    let stopped = 0;
    let reaped = 0;
    for (const { sessionId, taskId, record } of this.sessions.recorded()) {
      const task = this.tasks.get(taskId);
      const lookup = task ? this.executors.lookup(task.executor) : undefined;
      if (readopt && task && record && lookup?.supported && lookup.executor.adopt) {
        const taken = await lookup.executor.adopt({ sessionId, task, record });
        if (taken.ok) {
          this.track(sessionId, taken.value);
          adopted.push({ sessionId, host: taken.value });
          continue;
        }
        this.log.warn('task_host_not_adopted', { sessionId, executor: task.executor, detail: taken.error.message });
      }
      this.sessions.markLeftover(sessionId);
      stopped++;
      if (record?.pid !== undefined && record.identity !== undefined && reapOrphanedHost(record.pid, record.identity, reapGraceMs)) reaped++;
    }
    if (stopped > 0 || adopted.length > 0) this.log.info('sessions_recovered', { stopped, orphansReaped: reaped, adopted: adopted.length });
    return adopted;
  }

  get(sessionId: string): Session | undefined {
    return this.sessions.get(sessionId);
  }

  listForTask(taskId: string): Session[] {
    return this.sessions.listForTask(taskId);
  }

  /** The running task host of a session, when this backend runs one. */
  liveHost(sessionId: string): TaskHost | undefined {
    return this.live.get(sessionId);
  }

  /**
   * The task host of a session for a new LSP stream: waits for a start in flight; undefined when
   * the session is not running (or is being stopped), so nothing is opened on a dying host.
   */
  async hostFor(sessionId: string): Promise<TaskHost | undefined> {
    await this.starting.get(sessionId)?.catch(() => undefined);
    if (this.stopping.has(sessionId)) return undefined;
    return this.live.get(sessionId);
  }

  runningCount(): number {
    return this.live.size;
  }

  /** Called when a session's task host is up and running. */
  onRunning(listener: SessionListener): Disposable {
    return this.running.event(listener);
  }

  /** Called when a session stops being live for any reason (stop, crash, shutdown). */
  onEnded(listener: SessionListener): Disposable {
    return this.ended.event(listener);
  }

  async start(taskId: string): Promise<Result<Session, StartFailure>> {
    if (this.shuttingDown) return fail({ error: apiError('task_host_unavailable', 'the backend is shutting down') });
    const task = this.tasks.get(taskId);
    if (!task) return fail({ error: apiError('not_found', 'no such task') });
    const created = this.sessions.create(task.id);
    const lookup = this.executors.lookup(task.executor);
    if (!lookup.supported) {
      this.sessions.markFailed(created.id, lookup.message);
      this.log.warn('session_failed', { sessionId: created.id, executor: task.executor, reason: 'executor_unsupported' });
      return fail({ error: apiError('executor_unsupported', lookup.message), session: this.sessions.get(created.id) });
    }
    this.log.info('session_starting', { sessionId: created.id, taskId: task.id, executor: task.executor });
    // Registered before the first await and settled only after the host is live (or failed), so
    // a stop racing this start always finds what it has to stop.
    const starting = this.launch(created.id, lookup.executor, task);
    this.starting.set(created.id, starting);
    try {
      return await starting;
    } finally {
      this.starting.delete(created.id);
    }
  }

  private async launch(sessionId: string, executor: TaskHostExecutor, task: Task): Promise<Result<Session, StartFailure>> {
    // The task's own env wins nowhere here: these name this session's endpoint and token.
    const extra = this.sessionEnv?.(sessionId);
    const started = await executor.start({ sessionId, task: extra ? { ...task, env: { ...task.env, ...extra } } : task });
    if (!started.ok) {
      this.sessions.markFailed(sessionId, started.error.message);
      this.log.warn('session_failed', { sessionId, executor: task.executor, reason: started.error.code, detail: started.error.message });
      const code = started.error.code === 'workspace_invalid' ? 'bad_request' : 'task_host_unavailable';
      return fail({ error: apiError(code, started.error.message), session: this.sessions.get(sessionId) });
    }
    this.track(sessionId, started.value);
    return ok(this.sessions.get(sessionId) as Session);
  }

  /** A task host this backend now owns (started or re-adopted): live, recorded, watched for its end. */
  private track(sessionId: string, host: TaskHost): void {
    this.live.set(sessionId, host);
    const identity = host.pid === undefined ? undefined : processIdentity(host.pid);
    this.sessions.markRunning(
      sessionId,
      host.workspace.workspacePath,
      host.record ?? (identity && host.pid !== undefined ? { pid: host.pid, identity } : undefined),
    );
    this.log.info('session_running', { sessionId, pid: host.pid });
    this.running.fire(sessionId);
    void host.exited.then((exit) => {
      if (exit.requested || this.live.get(sessionId) !== host) return;
      // It died on its own: the session is over, and nothing may route to it any more.
      this.live.delete(sessionId);
      const why = exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
      this.sessions.markFailed(sessionId, `task host exited unexpectedly (${why})`);
      this.log.warn('task_host_exited', { sessionId, code: exit.code, signal: exit.signal });
      this.notifyEnded(sessionId);
    });
  }

  /** Stops a session's task host and reaps what it owns. Idempotent; concurrent calls share one stop. */
  stop(sessionId: string): Promise<Result<Session>> {
    const session = this.sessions.get(sessionId);
    if (!session) return Promise.resolve(fail(apiError('not_found', 'no such session')));
    const inFlight = this.stopping.get(sessionId);
    if (inFlight) return inFlight.then(ok);
    const stopping = this.stopNow(sessionId).finally(() => this.stopping.delete(sessionId));
    this.stopping.set(sessionId, stopping);
    return stopping.then(ok);
  }

  private async stopNow(sessionId: string): Promise<Session> {
    // A stop that races a start waits for it, then stops what it started.
    await this.starting.get(sessionId)?.catch(() => undefined);
    const host = this.live.get(sessionId);
    if (host) {
      const exit = await host.stop();
      this.live.delete(sessionId);
      this.sessions.markStopped(sessionId);
      this.log.info('session_stopped', { sessionId, code: exit.code, signal: exit.signal });
      this.notifyEnded(sessionId);
    }
    return this.sessions.get(sessionId) as Session;
  }

  /**
   * Stops every session of a task that is starting or running (a start in flight is awaited, then
   * stopped), so deleting the task leaves no task host or lease behind. Resolves when all are down.
   */
  async stopAllOfTask(taskId: string): Promise<Session[]> {
    const live = this.sessions
      .listForTask(taskId)
      .filter((s) => s.status === 'starting' || s.status === 'running' || this.live.has(s.id) || this.starting.has(s.id));
    const stopped = await Promise.all(live.map((s) => this.stop(s.id)));
    return stopped.flatMap((r) => (r.ok ? [r.value] : []));
  }

  /** Backend shutdown: every live task host stops, in parallel. */
  async stopAll(): Promise<void> {
    this.shuttingDown = true;
    await Promise.all([...this.starting.values()].map((p) => p.catch(() => undefined)));
    await Promise.all([...this.live.keys()].map((id) => this.stop(id)));
  }

  private notifyEnded(sessionId: string): void {
    this.ended.fire(sessionId);
  }

  private listenerFailed(err: unknown): void {
    this.log.error('request_failed', { reason: 'listener_failed', detail: messageOf(err) });
  }
}
