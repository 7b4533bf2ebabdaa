import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settled } from '../support/app.js';
import { launchChromium, newContext, type LaunchedBrowser } from '../support/browser.js';
import { hasChromium, prerequisite } from '../support/env.js';

/**
 * The race behind a red CI run: axe sampled a button's colour while a theme switch was fading it
 * (120 ms in the app), and measured a colour of neither theme. Reproduced here deterministically
 * by holding the fade at its midpoint (the Web Animations API pauses the running transition), which is
 * where a sample on a loaded machine can land; a fade sampled at its first frame still shows the light
 * colour, which made "two frames later" a race of its own. settled(), which every screenshot and axe
 * check waits for, always waits the fade out.
 */
const run = prerequisite(hasChromium(), 'Debian chromium (/usr/bin/chromium)');

const PAGE = `<!doctype html><html data-theme="light"><head><style>
  button { transition: background-color 3000ms linear; }
  html[data-theme="light"] button { background-color: rgb(255, 255, 255); }
  html[data-theme="dark"] button { background-color: rgb(0, 0, 0); }
</style></head><body><button>Save</button></body></html>`;

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.querySelector('button')!).backgroundColor);
const switchToDark = (page: Page) =>
  page.evaluate(async () => {
    document.documentElement.dataset.theme = 'dark';
    await new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
  });

describe.runIf(run)('a theme fade and what samples the page', () => {
  let browser: LaunchedBrowser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('mid-fade the transition is running and the colour is of neither theme (the race)', async () => {
    const page = await (await newContext(browser.browser)).newPage();
    await page.setContent(PAGE);
    await switchToDark(page);
    expect(await page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length)).toBe(1);
    await page.evaluate(() => {
      const [fade] = document.getAnimations();
      fade!.pause();
      fade!.currentTime = 1500;
    });
    expect(['rgb(255, 255, 255)', 'rgb(0, 0, 0)']).not.toContain(await background(page));
    await page.context().close();
  });

  it('settled() returns only once the fade is over: the colour sampled is the dark theme’s', async () => {
    const page = await (await newContext(browser.browser)).newPage();
    await page.setContent(PAGE);
    await switchToDark(page);
    await settled(page);
    expect(await page.evaluate(() => document.getAnimations().length)).toBe(0);
    expect(await background(page)).toBe('rgb(0, 0, 0)');
    await page.context().close();
  });
});
