// Opens the API reference in headless Chromium (Debian's `chromium`, driven by playwright-core): the page served by
// the running gateway at /docs, and the static copy `make docs` writes. Each must render every operation from the
// document, load nothing from another origin (it has to work offline), log no error nor document validation warning,
// and leave a screenshot in .test-data/browser/. Skipped with a message when Chromium is absent locally; required
// when CI=true (.ci/run installs it).
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeStaticDocs } from '../../src/docs/write-static-docs.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const REQUIRED = process.env.CI === 'true';
const AVAILABLE = existsSync(CHROMIUM);
const OUT_DIR = new URL('../../.test-data/browser/', import.meta.url).pathname;
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

// The API reference renders every operation in the browser: on a loaded host that takes tens of seconds.
const RENDER_TIMEOUT_MS = 180_000;

type Operation = { summary?: string; description?: string };
const doc = JSON.parse(readFileSync(new URL('../../generated/openapi.json', import.meta.url), 'utf8'));
const operations: Operation[] = Object.values(doc.paths as Record<string, Record<string, Operation>>).flatMap((item) =>
  Object.values(item),
);
const summaries = operations.map((op) => op.summary).filter((s): s is string => typeof s === 'string');
// The first sentence of each description proves the operation bodies render, not only the navigation.
const firstSentences = operations
  // Rendered as Markdown: wrapped lines join, and code spans lose their backticks.
  .map((op) => op.description?.split(/[.:]/)[0]?.replace(/\s+/g, ' ').replaceAll('`', ''))
  .filter((s): s is string => typeof s === 'string' && s.length > 10);

if (!AVAILABLE && !REQUIRED) {
  console.warn(
    `[browser] SKIPPED: no Chromium at ${CHROMIUM}. Install it (apt-get install -y chromium) or set CHROMIUM_PATH.`,
  );
}

/**
 * The texts not on the page, matched as Playwright's getByText matches them (runs in the page): a case-insensitive
 * substring of the rendered text with whitespace collapsed, leaving out <head>, scripts and styles.
 */
function missingTexts(texts: string[]): string[] {
  const skipped = new Set(['SCRIPT', 'NOSCRIPT', 'STYLE']);
  const parts: string[] = [];
  const walk = (node: Node): void => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === Node.TEXT_NODE) parts.push(child.nodeValue ?? '');
      else if (child.nodeType === Node.ELEMENT_NODE && !skipped.has(child.nodeName)) walk(child);
    }
  };
  walk(document.body);
  const normalize = (text: string) =>
    text
      .replace(/\u200b/g, '')
      .trim()
      .replace(/\s+/g, ' ')
      .toLowerCase();
  const page = normalize(parts.join(''));
  return texts.filter((text) => !page.includes(normalize(text)));
}

/** A minimal static file server, standing in for wherever the `make docs` folder gets published. */
async function serveFolder(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const types: Record<string, string> = {
    html: 'text/html',
    js: 'text/javascript',
    css: 'text/css',
    json: 'application/json',
    yaml: 'application/yaml',
  };
  const server = http.createServer((req, res) => {
    const name = (req.url ?? '/').split('?')[0].replace(/^\/docs\/?/, '') || 'index.html';
    const file = join(dir, name);
    if (name.includes('..') || !existsSync(file)) return void res.writeHead(404).end();
    res
      .writeHead(200, { 'content-type': types[name.split('.').pop() ?? ''] ?? 'application/octet-stream' })
      .end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(!AVAILABLE && !REQUIRED)('API reference page in headless Chromium', () => {
  let browser: Browser;

  beforeAll(async () => {
    if (!AVAILABLE) throw new Error(`CI=true requires Chromium at ${CHROMIUM} (.ci/run installs it with apt-get)`);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 30_000 });
    mkdirSync(OUT_DIR, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Loads `pageUrl`, waits for every operation, saves a screenshot; returns what went wrong on the way. */
  async function renderReference(pageUrl: string, origin: string, screenshot: string) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const foreign: string[] = [];
    const problems: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(origin) && !/^(data|blob):/.test(req.url())) foreign.push(req.url());
    });
    page.on('response', (res) => {
      if (res.status() >= 400) problems.push(`${res.status()} ${res.url()}`);
    });
    page.on('console', (msg) => {
      // A failed load is reported above with its URL; the console repeats it without one.
      if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource')) problems.push(msg.text());
      // The renderer checks the document it was given and warns, listing each schema it could not validate.
      if (msg.type() === 'warning' && /validation error/i.test(msg.text())) problems.push(`renderer: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
    try {
      const response = await page.goto(pageUrl, { waitUntil: 'load' });
      expect(response?.status()).toBe(200);
      // The title comes from the document: seeing it proves the page fetched and parsed the OpenAPI JSON.
      await page.getByText(doc.info.title).first().waitFor({ timeout: 60_000 });
      // Every operation's texts in one look at the page per poll: a getByText wait per text walked the whole document
      // 63 times. What is missing is what the assertion names.
      await expect
        .poll(() => page.evaluate(missingTexts, [...summaries, ...firstSentences]), { timeout: 60_000, interval: 250 })
        .toEqual([]);
      const fetchedDocument = await page.evaluate(() =>
        performance.getEntriesByType('resource').some((entry) => entry.name.endsWith('/openapi.json')),
      );
      // A stylesheet served with the wrong type is dropped without a console error: the page renders unstyled.
      const unstyled = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')]
          .filter((link) => !link.sheet?.cssRules.length)
          .map((link) => link.href),
      );
      problems.push(...unstyled.map((href) => `stylesheet not applied: ${href}`));
      await page.screenshot({ path: join(OUT_DIR, screenshot) });
      expect(readFileSync(join(OUT_DIR, screenshot)).subarray(1, 4).toString()).toBe('PNG');
      return { fetchedDocument, foreign, problems };
    } finally {
      await page.close();
    }
  }

  it(
    'renders /docs from the running gateway',
    async () => {
      const gw: TestGateway = await startTestGateway({
        env: { MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json' },
      });
      try {
        const result = await renderReference(`${gw.url}/docs`, gw.url, 'docs.png');
        expect(result).toEqual({ fetchedDocument: true, foreign: [], problems: [] });
      } finally {
        await gw.close();
      }
    },
    RENDER_TIMEOUT_MS,
  );

  it(
    'renders the static copy written by make docs',
    async () => {
      const site = await serveFolder(writeStaticDocs(join(OUT_DIR, 'static-docs')));
      try {
        const result = await renderReference(`${site.url}/docs/`, site.url, 'static-docs.png');
        expect(result).toEqual({ fetchedDocument: true, foreign: [], problems: [] });
      } finally {
        await site.close();
      }
    },
    RENDER_TIMEOUT_MS,
  );
});
