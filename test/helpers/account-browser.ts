// What the account page's Chromium tests share: where Chromium is and whether a run must have it (CI), how it is
// launched, a page signed in with a credential (its console errors and uncaught exceptions collected), and axe-core's
// serious or critical findings on a page.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { expect } from 'vitest';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** CI must run the browser suites: there a missing Chromium fails instead of skipping. */
export const CHROMIUM_REQUIRED = process.env.CI === 'true';
export const CHROMIUM_AVAILABLE = existsSync(CHROMIUM);
/** Whether a browser suite runs (describe.skipIf(!BROWSER_SUITES_RUN)). */
export const BROWSER_SUITES_RUN = CHROMIUM_AVAILABLE || CHROMIUM_REQUIRED;
if (!BROWSER_SUITES_RUN) console.warn(`[browser] SKIPPED: no Chromium at ${CHROMIUM}.`);

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-sync'];
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export async function launchChromium(): Promise<Browser> {
  if (!CHROMIUM_AVAILABLE) throw new Error(`CI=true requires Chromium at ${CHROMIUM}`);
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 30_000 });
}

export interface SignIn {
  /** The gateway's origin. */
  url: string;
  credential: string;
  /** Uncaught exceptions (and console errors, unless `consoleErrors` is false) are pushed here. */
  problems: string[];
  consoleErrors?: boolean;
  /** The page's browser context is pushed here, for closing. */
  contexts?: BrowserContext[];
}

/** A fresh context on /account, signed in, once the organization switcher has loaded. */
export async function signedInPage(browser: Browser, signIn: SignIn): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  signIn.contexts?.push(context);
  const page = await context.newPage();
  if (signIn.consoleErrors !== false)
    page.on('console', (msg) => {
      if (msg.type() === 'error') signIn.problems.push(msg.text());
    });
  page.on('pageerror', (err) => signIn.problems.push(`uncaught ${err.message}`));
  await page.goto(`${signIn.url}/account`);
  await page.getByLabel('Account token or API key').fill(signIn.credential);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => page.locator('#org-switcher option').count()).toBeGreaterThan(0);
  return page;
}

/** axe-core's serious and critical violations on the page as it is now, as `id (impact, n nodes)`. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const result = await (
      window as unknown as {
        axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> };
      }
    ).axe.run();
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}, ${v.nodes} nodes)`);
}
