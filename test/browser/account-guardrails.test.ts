// The account page's guardrails in headless Chromium: the owner adds guardrails (one naming an operator pattern),
// an API key of the organization sees the list without the form, a request through that key is redacted as the list
// says, and the owner removes one. axe-core finds no serious or critical violation. Skipped like the other browser
// tests when Chromium is absent.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_SUITES_RUN, launchChromium, seriousViolations, signedInPage } from '../helpers/account-browser.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { loadJson } from '../helpers/stream-replay.js';

describe.skipIf(!BROWSER_SUITES_RUN)('account page guardrails in headless Chromium', () => {
  let browser: Browser;
  let gw: TestGateway;
  let upstream: MockUpstream;
  const problems: string[] = [];

  beforeAll(async () => {
    upstream = await new MockUpstream().start();
    gw = await startTestGateway({
      env: {
        MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
        MODELGATE_GUARDRAIL_PATTERNS: '{"ticket_id":"TICKET-\\\\d+"}',
        OPENAI_API_KEY: 'sk-up',
        OPENAI_BASE_URL: `${upstream.url}/v1`,
      },
    });
    browser = await launchChromium();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
    await upstream?.close();
  });

  const signedIn = (credential: string): Promise<Page> => signedInPage(browser, { url: gw.url, credential, problems });

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
