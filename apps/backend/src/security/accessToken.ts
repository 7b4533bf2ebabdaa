import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, lstatSync, openSync, readSync, renameSync, unlinkSync, writeFileSync, constants } from 'node:fs';
import { join } from 'node:path';
import { ACCESS_TOKEN_FILE, ACCESS_TOKEN_PATTERN } from '@kandev/protocol';
import { fail, messageOf, ok, type Result } from '../base/result.js';

/**
 * Why a token file was not used as it stood. `missing`: first start, or deleted to revoke every
 * browser. The others mean the file was not what this backend wrote: it is replaced, never trusted.
 */
export type TokenReplacedReason =
  | 'missing'
  /** Not one token line (garbage, too short, too long, other characters, several lines). */
  | 'not_a_token'
  /** Group or others could read or write it: the token may be known, so it is no proof any more. */
  | 'open_mode'
  /** Another user owns it. */
  | 'foreign_owner'
  /** A symbolic link, a fifo, a device: not a plain file of ours (the link itself is replaced). */
  | 'not_a_file';

export interface AccessToken {
  value: string;
  /** `env`: KANDEV_TOKEN fixed it; `file`: read from (or just written to) the token file. */
  source: 'env' | 'file';
  /** True when this start generated it (first start, or the file was removed or unusable). */
  created: boolean;
  /** Why it was generated (undefined when an existing token was used). */
  replaced?: TokenReplacedReason;
  file: string;
}

export function accessTokenFile(home: string): string {
  return join(home, ACCESS_TOKEN_FILE);
}

/** A token file is one line of at most 256 characters: anything much longer is not read whole. */
const READ_LIMIT = 1024;

/**
 * The backend's access token: KANDEV_TOKEN when set (validated by the config), otherwise the one
 * kept in KANDEV_HOME/access-token, generated on first start. The value is never logged. A file
 * that this backend could not have written (content that is not one token, a mode others can read
 * or write, another owner, a link) is replaced by a fresh token: old links and cookies then stop
 * working, as after deleting the file on purpose to revoke every browser. A folder in its place is
 * an error (it is not ours to remove).
 */
export function loadAccessToken(home: string, fixed: string | undefined): Result<AccessToken, string> {
  const file = accessTokenFile(home);
  if (fixed !== undefined) return ok({ value: fixed, source: 'env', created: false, file });
  try {
    const found = readTokenFile(file);
    if (found.kind === 'token') return ok({ value: found.value, source: 'file', created: false, file });
    if (found.kind === 'folder') return fail(`cannot keep the access token in ${file}: a folder is in its place (remove it)`);
    const value = randomBytes(32).toString('base64url');
    writeFresh(file, value);
    return ok({ value, source: 'file', created: true, replaced: found.reason, file });
  } catch (err) {
    return fail(`cannot keep the access token in ${file}: ${messageOf(err)}`);
  }
}

type Found = { kind: 'token'; value: string } | { kind: 'replace'; reason: TokenReplacedReason } | { kind: 'folder' };

function readTokenFile(file: string): Found {
  let link;
  try {
    link = lstatSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'replace', reason: 'missing' };
    throw err;
  }
  if (link.isDirectory()) return { kind: 'folder' };
  if (!link.isFile()) return { kind: 'replace', reason: 'not_a_file' };
  // O_NOFOLLOW and O_NONBLOCK: a link or fifo swapped in after lstat is refused, never followed or waited on.
  const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { kind: 'replace', reason: 'not_a_file' };
    if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return { kind: 'replace', reason: 'foreign_owner' };
    if ((stat.mode & 0o077) !== 0) return { kind: 'replace', reason: 'open_mode' };
    const buffer = Buffer.alloc(READ_LIMIT);
    const length = readSync(fd, buffer, 0, READ_LIMIT, 0);
    const stored = buffer.subarray(0, length).toString('utf8').trim();
    return ACCESS_TOKEN_PATTERN.test(stored) ? { kind: 'token', value: stored } : { kind: 'replace', reason: 'not_a_token' };
  } finally {
    closeSync(fd);
  }
}

/** Written whole to a new 0600 file, then renamed over the old name (which may be a link: the link goes). */
function writeFresh(file: string, value: string): void {
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, `${value}\n`, { mode: 0o600, flag: 'wx' });
  try {
    renameSync(temporary, file);
  } catch (err) {
    unlinkSync(temporary);
    throw err;
  }
}
