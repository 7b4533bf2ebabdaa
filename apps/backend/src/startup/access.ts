/** Startup step: the access token every browser request must carry, and the gate that checks it. */
import type { Logger } from '../base/log.js';
import { AccessGate } from '../security/accessGate.js';
import { loadAccessToken, type AccessToken } from '../security/accessToken.js';

/** What the access step reads: a structural part of BackendConfig (config.ts), so startup/ never imports the composition root. */
export interface AccessSettings {
  home: string;
  /** KANDEV_ACCESS_TOKEN: a fixed token instead of the one kept in KANDEV_HOME. */
  accessToken: string | undefined;
}

export interface Access {
  access: AccessToken;
  gate: AccessGate;
}

/** Throws (the start fails) when no token can be loaded or created. */
export function loadAccess(config: AccessSettings, log: Logger): Access {
  const loaded = loadAccessToken(config.home, config.accessToken);
  if (!loaded.ok) throw new Error(loaded.error);
  const access = loaded.value;
  log.info('access_ready', { source: access.source, created: access.created });
  // A token file this backend did not write is never trusted: say why a fresh token took its place
  // (every browser must sign in again with the new start link).
  if (access.replaced && access.replaced !== 'missing') log.warn('access_token_replaced', { file: access.file, reason: access.replaced });
  return { access, gate: new AccessGate(access.value) };
}
