import { existsSync } from 'node:fs';

export const inCi = process.env.CI === 'true';

/**
 * Whether a suite's prerequisite is here. Locally a missing prerequisite skips the suite with a
 * reason; in CI it fails, because CI installed everything and a skip there would hide a defect.
 */
export function prerequisite(present: boolean, what: string): boolean {
  if (present) return true;
  if (inCi) throw new Error(`CI cannot run this suite: ${what} is missing`);
  console.warn(`skipping: ${what} is missing`);
  return false;
}

export const chromiumPath = '/usr/bin/chromium';
export const hasChromium = () => existsSync(chromiumPath);
