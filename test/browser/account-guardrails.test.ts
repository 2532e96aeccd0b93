// The account page's guardrails in headless Chromium: the owner adds guardrails (one naming an operator pattern),
// an API key of the organization sees the list without the form, a request through that key is redacted as the list
// says, and the owner removes one. axe-core finds no serious or critical violation. Skipped like the other browser
// tests when Chromium is absent.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { loadJson } from '../helpers/stream-replay.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const REQUIRED = process.env.CI === 'true';
const AVAILABLE = existsSync(CHROMIUM);
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-sync'];
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
if (!AVAILABLE && !REQUIRED) console.warn(`[browser] SKIPPED: no Chromium at ${CHROMIUM}.`);

describe.skipIf(!AVAILABLE && !REQUIRED)('account page guardrails in headless Chromium', () => {
  let browser: Browser;
  let gw: TestGateway;
  let upstream: MockUpstream;
  const problems: string[] = [];

  beforeAll(async () => {
    if (!AVAILABLE) throw new Error(`CI=true requires Chromium at ${CHROMIUM}`);
    upstream = await new MockUpstream().start();
    gw = await startTestGateway({
      env: {
        MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
        MODELGATE_GUARDRAIL_PATTERNS: '{"ticket_id":"TICKET-\\\\d+"}',
        OPENAI_API_KEY: 'sk-up',
        OPENAI_BASE_URL: `${upstream.url}/v1`,
      },
    });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 30_000 });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    await upstream?.close();
  });

  async function signedIn(credential: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(msg.text());
    });
    page.on('pageerror', (err) => problems.push(`uncaught ${err.message}`));
    await page.goto(`${gw.url}/account`);
    await page.getByLabel('Account token or API key').fill(credential);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.locator('#org-switcher option').count()).toBeGreaterThan(0);
    return page;
  }

  async function seriousViolations(page: Page): Promise<string[]> {
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

  async function sent(key: string): Promise<string> {
    upstream.reply({ kind: 'json', body: loadJson('openai', 'text') });
    const res = await gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'openai/gpt-test',
        max_tokens: 20,
        stream: false,
        messages: [{ role: 'user', content: 'TICKET-7 from a@example.com' }],
      }),
    });
    expect(res.status).toBe(200);
    return upstream.last.body.messages[0].content;
  }

  it('adds guardrails, shows them to an API key without the form, applies them, and removes one', async () => {
    const user = await gw.createUser('guardrails-owner@acme.test');
    await gw.grant(user.userId, 5);
    const owner = await signedIn(await gw.createToken(user.userId));
    await expect.poll(() => owner.locator('#guardrails-empty').isVisible()).toBe(true);

    await owner.getByLabel('Guardrail name').fill('no-emails');
    await owner.getByRole('button', { name: 'Add guardrail' }).click();
    await expect.poll(() => owner.locator('#guardrail-rows tr').count()).toBe(1);
    await owner.getByLabel('Guardrail name').fill('tickets');
    await owner.getByLabel('Detector').selectOption('regex');
    await owner.getByLabel('Operator pattern').fill('ticket_id');
    await owner.getByRole('button', { name: 'Add guardrail' }).click();
    await expect.poll(() => owner.locator('#guardrail-rows tr').count()).toBe(2);
    const second = owner.locator('#guardrail-rows tr').nth(1);
    expect(await second.locator('td').allTextContents()).toEqual([
      'input',
      'redact',
      'regex: ticket_id',
      expect.any(String),
    ]);
    expect(await seriousViolations(owner)).toEqual([]);

    // A pattern the operator has not defined: the gateway's reason is shown, the list stays as it was.
    await owner.getByLabel('Guardrail name').fill('other');
    await owner.getByLabel('Detector').selectOption('regex');
    await owner.getByLabel('Operator pattern').fill('nope');
    await owner.getByRole('button', { name: 'Add guardrail' }).click();
    await expect.poll(() => owner.locator('#error').textContent()).toContain('has not defined');
    expect(await owner.locator('#guardrail-rows tr').count()).toBe(2);

    expect(await sent(user.key)).toBe('[TICKET_ID] from [EMAIL]');

    const reader = await signedIn(user.key);
    await expect.poll(() => reader.locator('#guardrail-rows tr').count()).toBe(2);
    expect(await reader.locator('#guardrail-form').isHidden()).toBe(true);
    expect(await reader.getByRole('button', { name: 'Remove guardrail no-emails' }).count()).toBe(0);

    await owner.getByRole('button', { name: 'Remove guardrail no-emails' }).click();
    await expect.poll(() => owner.locator('#guardrail-rows tr').count()).toBe(1);
    expect(await sent(user.key)).toBe('[TICKET_ID] from a@example.com');
    problems.splice(0, problems.length, ...problems.filter((p) => !p.includes('400')));
    expect(problems).toEqual([]);
  });
});
