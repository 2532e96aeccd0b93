// The account page shows what the response cache saved over the last 30 days ("saved by the response cache"), from
// GET /activity's cache_hits and cache_savings, and marks hits in the list of generations. Headless Chromium as in
// account-page.test.ts (skipped with a message when it is absent locally; required when CI=true).
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { newId } from '../../src/auth/secrets.js';
import type { NewGeneration } from '../../src/db/tables/generations.js';
import { settleGenerationBatch } from '../../src/repositories/settlements.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const REQUIRED = process.env.CI === 'true';
const AVAILABLE = existsSync(CHROMIUM);
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

function record(userId: string, overrides: Partial<NewGeneration>): NewGeneration {
  return {
    id: newId('gen-'),
    user_id: userId,
    api_key_id: null,
    access_mode: 'credits',
    model: 'openai/gpt-test',
    provider: 'openai',
    upstream_model: 'gpt-test-2026',
    upstream_id: null,
    streamed: false,
    finish_reason: 'stop',
    status: 'success',
    http_status: 200,
    error_code: null,
    error_message: null,
    prompt_tokens: 1000,
    completion_tokens: 500,
    cost_nanos: 6_000_000n,
    reference_cost_nanos: null,
    latency_ms: 500,
    time_to_first_token_ms: null,
    app_title: null,
    app_referer: null,
    task_id: null,
    created_at: new Date(Date.now() - 60_000),
    ...overrides,
  };
}

describe.skipIf(!AVAILABLE && !REQUIRED)('account page: savings of the response cache', () => {
  let browser: Browser;
  let gw: TestGateway;
  let token: string;

  beforeAll(async () => {
    if (!AVAILABLE) throw new Error(`CI=true requires Chromium at ${CHROMIUM}`);
    gw = await startTestGateway({ env: { MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json' } });
    const user = await gw.createUser();
    token = await gw.createToken(user.userId);
    await gw.grant(user.userId, 1);
    const hit = {
      prompt_tokens: 0,
      completion_tokens: 0,
      cost_nanos: 0n,
      cache_hit: true,
      cache_saved_nanos: 6_000_000n,
    };
    await settleGenerationBatch(
      gw.db,
      [record(user.userId, {}), record(user.userId, hit), record(user.userId, { ...hit, created_at: new Date() })].map(
        (r) => ({ record: r, settle: 'credits' as const, reservedNanos: 0n }),
      ),
    );
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 30_000 });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('shows the amount saved and the hits, and marks hits in the generations', async () => {
    const page = await browser.newPage();
    await page.goto(`${gw.url}/account`);
    await page.getByLabel('Account token or API key').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.locator('#cache-savings').isVisible()).toBe(true);
    expect((await page.locator('#cache-savings').textContent())?.replace(/\s+/g, ' ')).toBe(
      'Saved by the response cache: $0.0120 (2 answers served from the cache, not counted as requests below).',
    );
    await expect.poll(() => page.locator('#generation-rows tr').count()).toBe(3);
    expect(await page.locator('#generation-rows').textContent()).toContain('OK (from cache)');
    // The usage table counts the one request that reached the provider.
    expect(await page.locator('#usage-rows tr td').nth(1).textContent()).toBe('1');
    await page.close();
  });
});
