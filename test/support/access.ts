import { ACCESS_COOKIE } from '@kandev/protocol';

/**
 * Every backend the tests start runs with this fixed access token (KANDEV_TOKEN), so helpers can
 * carry it without asking: `stack.api()` and the support clients send it as a bearer header, and
 * `newContext()` gives each browser context the sign-in cookie for 127.0.0.1 and localhost
 * (cookies are per host, not per port, so one cookie covers every stack of a test file).
 */
export const TEST_ACCESS_TOKEN = 'kandev-test-access-token-0123456789';

export const testTokenEnv = { KANDEV_TOKEN: TEST_ACCESS_TOKEN } as const;

export function authHeaders(token = TEST_ACCESS_TOKEN): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** The cookie the sign-in link would have set, for playwright's `context.addCookies`. */
export function accessCookies(token = TEST_ACCESS_TOKEN) {
  return ['127.0.0.1', 'localhost'].map((domain) => ({
    name: ACCESS_COOKIE,
    value: token,
    domain,
    path: '/',
    httpOnly: true,
    secure: false,
    sameSite: 'Strict' as const,
  }));
}
