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

/**
 * The HTTP status every route (and the LSP and events upgrades) answers a caller without a valid
 * token: a page that gets it has lost its sign-in (the token changed, its cookie expired).
 */
export const UNAUTHORIZED_STATUS = 401;

/** The answer of `GET /api/access` (API_ROUTES.access) to a caller whose sign-in is valid. */
export interface AccessCheckResponse {
  signedIn: true;
}
