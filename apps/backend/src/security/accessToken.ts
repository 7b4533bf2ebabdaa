import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACCESS_TOKEN_FILE, ACCESS_TOKEN_PATTERN } from '@kandev/protocol';
import { fail, messageOf, ok, type Result } from '../base/result.js';
import { ensurePrivateFile } from './privateFiles.js';

export interface AccessToken {
  value: string;
  /** `env`: KANDEV_TOKEN fixed it; `file`: read from (or just written to) the token file. */
  source: 'env' | 'file';
  /** True when this start generated it (first start, or the file was removed or unusable). */
  created: boolean;
  file: string;
}

export function accessTokenFile(home: string): string {
  return join(home, ACCESS_TOKEN_FILE);
}

/**
 * The backend's access token: KANDEV_TOKEN when set (validated by the config), otherwise the one
 * kept in KANDEV_HOME/access-token, generated on first start. The file is 0600 and the value is
 * never logged; a file whose content is not a token is replaced (old links then stop working, as
 * after deleting it on purpose to revoke every browser).
 */
export function loadAccessToken(home: string, fixed: string | undefined): Result<AccessToken, string> {
  const file = accessTokenFile(home);
  if (fixed !== undefined) return ok({ value: fixed, source: 'env', created: false, file });
  try {
    ensurePrivateFile(file);
    const stored = readFileSync(file, 'utf8').trim();
    if (ACCESS_TOKEN_PATTERN.test(stored)) return ok({ value: stored, source: 'file', created: false, file });
    const value = randomBytes(32).toString('base64url');
    writeFileSync(file, `${value}\n`, { mode: 0o600 });
    return ok({ value, source: 'file', created: true, file });
  } catch (err) {
    return fail(`cannot keep the access token in ${file}: ${messageOf(err)}`);
  }
}
