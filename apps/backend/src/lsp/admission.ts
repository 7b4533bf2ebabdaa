import { CloseCode, isLanguageId, type LanguageId } from '@kandev/protocol';
import { isSupportedExecutor } from '../executors/registry.js';
import type { SessionService } from '../sessions/sessionService.js';
import type { TaskRepository } from '../store/taskRepository.js';
import type { LspRoute } from './lspRoute.js';

export type AdmissionRefusal = 'unknown_language' | 'unknown_session' | 'executor_unsupported' | 'session_ended';

export type Admission =
  { ok: true; sessionId: string; language: LanguageId; leaseHint: string | undefined } | { ok: false; code: CloseCode; reason: AdmissionRefusal };

/**
 * The admission checks before the lease broker, in the contract's order (docs/architecture.md section 3; the
 * caller already checked the Origin): language known, then executor supported (4004: nothing is
 * started or resumed for an unsupported kind). The lease (reattach, or a new one under capacity,
 * 4005) is the broker's next, and only then is the session's agentctl reached (else 4002).
 *
 * An unknown session, or one that already ended (stopped, failed), is refused here with 4002: a
 * session is one execution, so no lease could ever serve it, and asking the broker would only
 * risk evicting a detached lease for nothing. Synchronous on purpose: no frame slips in between.
 */
export function checkAdmission(route: LspRoute, sessions: SessionService, tasks: TaskRepository): Admission {
  if (!isLanguageId(route.language)) return { ok: false, code: CloseCode.Unavailable, reason: 'unknown_language' };
  const session = sessions.get(route.sessionId);
  const task = session && tasks.get(session.taskId);
  if (!session || !task) return { ok: false, code: CloseCode.Unavailable, reason: 'unknown_session' };
  if (!isSupportedExecutor(task.executor)) return { ok: false, code: CloseCode.ExecutorUnsupported, reason: 'executor_unsupported' };
  if (session.status === 'stopped' || session.status === 'failed') return { ok: false, code: CloseCode.Unavailable, reason: 'session_ended' };
  return { ok: true, sessionId: session.id, language: route.language, leaseHint: route.leaseHint };
}
