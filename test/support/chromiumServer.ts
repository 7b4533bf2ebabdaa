import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumArgs, chromiumEndpointEnv } from './browser.js';
import { chromiumPath, hasChromium } from './env.js';

/**
 * Vitest global setup of the browser suites: one Chromium for the whole run, which every test file
 * (in every worker) connects to through launchChromium() and uses through browser contexts of its
 * own. A launch costs one to three seconds on a loaded two-core machine; forty files paid it each.
 * Without Chromium nothing starts here, and the files' own prerequisite check says why.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (!hasChromium() || process.env[chromiumEndpointEnv]) return undefined;
  const profile = mkdtempSync(join(tmpdir(), 'kandev-chromium-'));
  const server = await chromium.launchServer({ executablePath: chromiumPath, headless: true, args: chromiumArgs, env: { ...process.env, TMPDIR: profile } });
  // Workers are started after global setup and inherit its environment.
  process.env[chromiumEndpointEnv] = server.wsEndpoint();
  return async () => {
    delete process.env[chromiumEndpointEnv];
    await server.close().catch(() => undefined);
    rmSync(profile, { recursive: true, force: true });
  };
}
