/**
 * How a browser and a script prove they may use a backend (docs/architecture.md section 9, Access). The start URL
 * carries the token once as `?token=`; the backend trades it for an HttpOnly cookie and redirects to
 * the same address without it. Scripts send `Authorization: Bearer <token>` instead.
 */
export const ACCESS_TOKEN_PARAM = 'token';
export const ACCESS_COOKIE = 'kandev_access';
/** The file under KANDEV_HOME that keeps the generated token (mode 0600). */
export const ACCESS_TOKEN_FILE = 'access-token';
/** A token: URL- and cookie-safe characters, long enough not to be guessed. */
export const ACCESS_TOKEN_PATTERN = /^[A-Za-z0-9._~-]{16,256}$/;
