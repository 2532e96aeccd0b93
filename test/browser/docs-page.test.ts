// Opens /docs in headless Chromium (Debian's `chromium`, driven by playwright-core) against the running gateway:
// the reference must render every operation from the served document, load nothing from another origin (it has
// to work offline), break no Content-Security-Policy rule, and leave a screenshot for humans in .test-data/.
// Skipped with a message when Chromium is absent locally; required when CI=true (.ci/run installs it).
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const REQUIRED = process.env.CI === 'true';
const AVAILABLE = existsSync(CHROMIUM);
const SCREENSHOT_DIR = new URL('../../.test-data/browser/', import.meta.url);
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const doc = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const summaries: string[] = Object.values(doc.paths as Record<string, Record<string, { summary?: string }>>)
  .flatMap((item) => Object.values(item).map((op) => op.summary))
  .filter((s): s is string => typeof s === 'string');
const firstSentences: string[] = Object.values(doc.paths as Record<string, Record<string, { description?: string }>>)
  .flatMap((item) => Object.values(item).map((op) => op.description?.split(/[.:]/)[0]))
  .filter((s): s is string => typeof s === 'string' && s.length > 10);

if (!AVAILABLE && !REQUIRED) {
  console.warn(`[browser] SKIPPED: no Chromium at ${CHROMIUM}. Install it (apt-get install -y chromium) or set CHROMIUM_PATH.`);
}

describe.skipIf(!AVAILABLE && !REQUIRED)('API reference page in headless Chromium', () => {
  let gw: TestGateway;
  let browser: Browser;

  beforeAll(async () => {
    if (!AVAILABLE) throw new Error(`CI=true requires Chromium at ${CHROMIUM} (.ci/run installs it with apt-get)`);
    gw = await startTestGateway({ env: { MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json' } });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 30_000 });
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('renders every operation from the served document, offline, and saves a screenshot', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const foreign: string[] = [];
    const problems: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(gw.url) && !req.url().startsWith('data:') && !req.url().startsWith('blob:')) foreign.push(req.url());
    });
    page.on('response', (res) => {
      if (res.status() >= 400) problems.push(`${res.status()} ${res.url()}`);
    });
    page.on('console', (msg) => {
      // A failed load is reported above with its URL; the console repeats it without one.
      if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) problems.push(msg.text());
    });
    page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));

    const response = await page.goto(`${gw.url}/docs`, { waitUntil: 'load' });
    expect(response?.status()).toBe(200);
    // The title comes from the document, so seeing it proves the page fetched and parsed /api/v1/openapi.json.
    await page.getByText(doc.info.title, { exact: false }).first().waitFor({ timeout: 20_000 });
    for (const summary of summaries) {
      await page.getByText(summary, { exact: true }).first().waitFor({ state: 'attached', timeout: 10_000 });
    }
    // Not only the navigation: the operation bodies render too (the description's first sentence of each).
    for (const description of firstSentences) {
      await page.getByText(description, { exact: false }).first().waitFor({ state: 'attached', timeout: 10_000 });
    }
    const requestedDocument = await page.evaluate(() =>
      performance.getEntriesByType('resource').some((entry) => entry.name.endsWith('/api/v1/openapi.json')),
    );
    expect(requestedDocument).toBe(true);

    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const file = new URL('docs.png', SCREENSHOT_DIR);
    await page.screenshot({ path: file.pathname });
    expect(readFileSync(file).subarray(1, 4).toString()).toBe('PNG');

    expect(foreign).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
