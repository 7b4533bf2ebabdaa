import { CloseCode, isLanguageId, type LanguageId } from '@kandev/protocol';
import { isSupportedExecutor } from '../executors/registry.js';
import type { TaskHost } from '../executors/executor.js';
import type { SessionService } from '../sessions/sessionService.js';
import type { TaskRepository } from '../store/taskRepository.js';
import type { LspRoute } from './lspRoute.js';

export type AdmissionRefusal = 'unknown_language' | 'unknown_session' | 'executor_unsupported' | 'session_not_running';

export type Admission =
  | { ok: true; sessionId: string; language: LanguageId; leaseHint: string | undefined; host: TaskHost }
  | { ok: false; code: CloseCode; reason: AdmissionRefusal };

/**
 * The admission checks that need no capacity, in the contract's order (DESIGN section 3): language
 * known, then executor supported (4004: nothing is started or resumed for an unsupported kind),
 * then a running session with a live task host (4002). The caller already checked the Origin and
 * asks for capacity next. Synchronous on purpose: no frame can slip in between the checks.
 */
export function checkAdmission(route: LspRoute, sessions: SessionService, tasks: TaskRepository): Admission {
  if (!isLanguageId(route.language)) return { ok: false, code: CloseCode.Unavailable, reason: 'unknown_language' };
  const session = sessions.get(route.sessionId);
  const task = session && tasks.get(session.taskId);
  if (!session || !task) return { ok: false, code: CloseCode.Unavailable, reason: 'unknown_session' };
  if (!isSupportedExecutor(task.executor)) return { ok: false, code: CloseCode.ExecutorUnsupported, reason: 'executor_unsupported' };
  const host = sessions.liveHost(session.id);
  if (!host) return { ok: false, code: CloseCode.Unavailable, reason: 'session_not_running' };
  return { ok: true, sessionId: session.id, language: route.language, leaseHint: route.leaseHint, host };
}
