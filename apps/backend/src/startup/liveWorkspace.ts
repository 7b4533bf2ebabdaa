/**
 * Startup step: the live workspace, one agentctl events stream per session fanned out to its pages
 *. It never touches the idle reclaimer, so a page that only listens does
 * not keep a task host running.
 */
import type { KeepaliveTiming } from '@kandev/node-transport';
import type { IncomingMessage } from 'node:http';
import type { Logger } from '../base/log.js';
import { EventsGateway } from '../events/eventsGateway.js';
import { eventsUpstreamOpener } from '../events/eventsUpstream.js';
import { SessionEventsHub } from '../events/sessionEvents.js';
import type { OriginPolicy } from '../security/origin.js';
import type { SessionService } from '../sessions/sessionService.js';

export interface LiveWorkspaceDeps {
  sessions: SessionService;
  originPolicy: OriginPolicy;
  authenticate: (req: IncomingMessage) => boolean;
  keepalive: KeepaliveTiming;
  log: Logger;
}

export interface LiveWorkspace {
  hub: SessionEventsHub;
  gateway: EventsGateway;
}

export function startLiveWorkspace(deps: LiveWorkspaceDeps): LiveWorkspace {
  const { sessions, keepalive, log } = deps;
  const hub = new SessionEventsHub(eventsUpstreamOpener({ liveEndpoint: (id) => sessions.liveHost(id)?.endpoint, keepalive }), log);
  sessions.onEnded((id) => hub.sessionEnded(id));
  const gateway = new EventsGateway({
    hub,
    originPolicy: deps.originPolicy,
    authenticate: deps.authenticate,
    sessionExists: (id) => sessions.get(id) !== undefined,
    sessionRunning: (id) => sessions.liveHost(id) !== undefined,
    log,
    keepalive,
  });
  return { hub, gateway };
}
