// Drives the account page (/account) in headless Chromium (Debian's `chromium`, through playwright-core) against a
// running gateway with seeded data: errors in words, sign in, balance, generations and a full record, the usage
// chart, the pass meters, creating a key (read once) and deleting it, sign out; axe-core finds no serious or
// critical violation; no console error (a CSP violation would be one). Screenshots at 360 px and 1280 px go to
// .test-data/browser/ (the test prints the folder). Skipped with a message when Chromium is absent locally;
// required when CI=true (.ci/run installs it).
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { HISTORY_MODELS as MODELS, seedAccountHistory } from './account-page-fixture.js';

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
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
if (!AVAILABLE && !REQUIRED) {
  console.warn(
    `[browser] SKIPPED: no Chromium at ${CHROMIUM}. Install it (apt-get install -y chromium) or set CHROMIUM_PATH.`,
  );
}

describe.skipIf(!AVAILABLE && !REQUIRED)('account page in headless Chromium', () => {
  let browser: Browser;
  let gw: TestGateway;
  let token: string;

  beforeAll(async () => {
    if (!AVAILABLE) throw new Error(`CI=true requires Chromium at ${CHROMIUM} (.ci/run installs it with apt-get)`);
    mkdirSync(OUT_DIR, { recursive: true });
    gw = await startTestGateway({ env: { MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json' } });
    const user = await gw.createUser('dev@localhost');
    token = await gw.createToken(user.userId);
    await gw.grant(user.userId, 20);
    await seedAccountHistory(gw.db, user.userId);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 30_000 });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  async function runAxe(page: Page): Promise<string[]> {
    // evaluate() runs outside the page's CSP, which (rightly) refuses injected script tags.
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

  it('signs in, shows credits, chart, pass meters and records, creates and deletes a key, signs out', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (msg) => {
      // The simulated network failure and the refused credential below are logged by the browser on purpose.
      if (msg.type() === 'error' && !/ERR_INTERNET_DISCONNECTED|status of 401/.test(msg.text()))
        problems.push(msg.text());
    });
    page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
    page.on('request', (req) => {
      if (!req.url().startsWith(gw.url) && !req.url().startsWith('data:'))
        problems.push(`foreign request ${req.url()}`);
    });
    try {
      const response = await page.goto(`${gw.url}/account`);
      expect(response?.status()).toBe(200);
      expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");

      // Errors in words: network down, then a refused credential.
      await page.route('**/api/v1/credits', (route) => route.abort('internetdisconnected'));
      await page.getByLabel('Account token or API key').fill(token);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('Cannot reach the gateway');
      await page.unroute('**/api/v1/credits');
      await page.getByLabel('Account token or API key').fill('mg-v1-notarealkey000000000000000000000000');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('refused');

      await page.getByLabel('Account token or API key').fill(token);
      await page.getByRole('button', { name: 'Sign in' }).click();
      // 20 USD granted, the history's 1.616 USD (account-page-fixture.ts) debited.
      await expect.poll(() => page.locator('#balance').textContent()).toBe('$18.3840');
      expect(await page.locator('#total-used').textContent()).toBe('$1.6160');
      expect(page.url()).toBe(`${gw.url}/account`);
      expect(await page.evaluate(() => document.cookie)).toBe('');

      // Last generations, and one full record.
      await expect.poll(() => page.locator('#generation-rows tr').count()).toBe(24);
      await page.locator('#generation-rows button').first().click();
      await expect.poll(() => page.locator('#generation-detail').textContent()).toContain('latency');
      // Keyboard: the record takes focus when it opens and gives it back to its row when it closes.
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('generation-detail-title');
      await page.getByRole('button', { name: 'Close record' }).press('Enter');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
        await page.locator('#generation-rows button').first().textContent(),
      );
      await page.locator('#generation-rows button').first().click();

      // Chart: two SVGs with bars, a legend per model, the table alternative.
      await expect.poll(() => page.locator('#chart-cost rect[fill^="url("]').count()).toBeGreaterThan(10);
      expect(await page.locator('#chart-requests rect[fill^="url("]').count()).toBeGreaterThan(10);
      for (const { model } of MODELS)
        await expect.poll(() => page.locator('#usage-legend').textContent()).toContain(model);
      // Two records a day of two different models: one table row per day and model.
      expect(await page.locator('#usage-rows tr').count()).toBe(24);

      // Pass meters: three windows, 1.20 USD used in each.
      await expect.poll(() => page.locator('#pass-meters meter').count()).toBe(3);
      expect(await page.locator('#pass-meters').textContent()).toContain('$1.2000 of');

      // One money format everywhere: balance, records, chart axis and tooltips, table, keys, pass meters.
      const amounts = await page.evaluate(() => {
        const texts = [...document.querySelectorAll('#account *')].flatMap((node) =>
          [...node.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent ?? ''),
        );
        return texts.join(' ').match(/\S*\$\S*/g) ?? [];
      });
      expect(amounts.length).toBeGreaterThan(40);
      for (const amount of amounts) expect(amount).toMatch(/^\(?-?(\$\d{1,3}(,\d{3})*\.\d{4}|<\$0\.0001)[),:.]?$/);

      // Create a key: shown once, works; then delete it with confirmation: refused.
      await page.getByLabel('New key name').fill('browser-test');
      await page.getByRole('button', { name: 'Create key' }).click();
      await expect.poll(() => page.getByLabel('Key value').inputValue()).not.toBe('');
      const secret = await page.getByLabel('Key value').inputValue();
      expect((await gw.fetch('/api/v1/key', { key: secret })).status).toBe(200);
      await page.getByRole('button', { name: 'I stored it, hide it' }).click();
      expect(await page.locator('#new-key-value').inputValue()).toBe('');

      await page.screenshot({ path: join(OUT_DIR, 'account-1280.png'), fullPage: true });
      // The first screen (what `make screenshot` writes to docs/images/account-page.png).
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: join(OUT_DIR, 'account-overview.png') });
      await page.setViewportSize({ width: 360, height: 780 });
      await page.screenshot({ path: join(OUT_DIR, 'account-360.png'), fullPage: true });
      // At 360 px nothing but the scrollable tables may be wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await page.setViewportSize({ width: 1280, height: 900 });
      console.log(
        `[browser] account page screenshots: ${join(OUT_DIR, 'account-1280.png')}, ${join(OUT_DIR, 'account-360.png')}`,
      );

      expect(await runAxe(page)).toEqual([]);

      await page.getByRole('button', { name: 'Delete browser-test' }).click();
      await page.getByRole('button', { name: 'Yes, delete' }).click();
      await expect.poll(() => page.locator('#keys-rows').textContent()).not.toContain('browser-test');
      expect((await gw.fetch('/api/v1/key', { key: secret })).status).toBe(401);

      // Per-key limits (the operator API's key fields): shown, and changed through PATCH /api-keys/{key_id}.
      expect(await page.locator('#keys-col-limit').isVisible()).toBe(true);
      const keyNamed = async (name: string) => {
        const listed = (await (await gw.fetch('/api/v1/api-keys', { key: token })).json()) as {
          data: Array<{ name: string; disabled?: boolean; limit?: number | null }>;
        };
        return listed.data.find((k) => k.name === name);
      };
      await page.getByRole('button', { name: 'Disable test' }).click();
      await expect.poll(async () => (await keyNamed('test'))?.disabled).toBe(true);
      await page.getByRole('button', { name: 'Edit limit of test' }).click();
      await page.getByLabel('Limit for test in USD (empty: none)').fill('7');
      await page.getByRole('button', { name: 'Save limit' }).click();
      await expect.poll(async () => (await keyNamed('test'))?.limit).toBe(7);

      await page.getByRole('button', { name: 'Sign out' }).click();
      await expect.poll(() => page.getByLabel('Account token or API key').isVisible()).toBe(true);
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
      expect(await page.locator('#account').isHidden()).toBe(true);
      expect(await page.locator('#generation-rows tr').count()).toBe(0);
      expect(await page.locator('#balance').textContent()).toBe('—');
      expect(await runAxe(page)).toEqual([]);

      expect(problems).toEqual([]);
      expect(gw.logs.join('\n')).not.toContain(token);
      expect(gw.logs.join('\n')).not.toContain(secret);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('an account without a pass loads without a failed request or a console error, the pass panel hidden', async () => {
    const user = await gw.createUser('no-pass@example.com');
    const noPassToken = await gw.createToken(user.userId);
    await gw.grant(user.userId, 1.5);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console ${msg.type()}: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
    page.on('requestfailed', (req) => problems.push(`failed request ${req.url()}`));
    page.on('response', (res) => {
      if (res.status() >= 400) problems.push(`${res.status()} ${res.url()}`);
    });
    try {
      await page.goto(`${gw.url}/account`);
      await page.getByLabel('Account token or API key').fill(noPassToken);
      const passAsked = page.waitForResponse((res) => res.url().endsWith('/api/v1/pass/usage'));
      await page.getByRole('button', { name: 'Sign in' }).click();
      expect((await passAsked).status()).toBe(200);
      await expect.poll(() => page.locator('#balance').textContent()).toBe('$1.5000');
      await expect.poll(() => page.locator('#keys-rows').textContent()).toContain('test');
      expect(await page.locator('#pass').isHidden()).toBe(true);
      expect(await page.getByRole('alert').isHidden()).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('follows key scopes: an API key sees no key management but its own revocation; the token creates management keys', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(msg.text());
    });
    page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
    const create = async (body: Record<string, unknown>) =>
      (await (
        await gw.fetch('/api/v1/api-keys', {
          method: 'POST',
          key: token,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json()) as { key: string; key_id: string };
    const ci = await create({ name: 'ci-scoped', limit: 1, allowed_models: ['openai/*'] });
    await create({ name: 'sibling' });
    const signIn = async (credential: string) => {
      await page.getByLabel('Account token or API key').fill(credential);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => page.locator('#keys-rows').textContent()).toContain('sibling');
    };
    try {
      await page.goto(`${gw.url}/account`);
      await signIn(ci.key);
      expect(await page.locator('#keys-scope').textContent()).toContain('revoke itself');
      expect(await page.locator('#create-key-form').isHidden()).toBe(true);
      expect(await page.getByRole('button', { name: 'Delete sibling' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Edit limit of ci-scoped' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Disable ci-scoped' }).count()).toBe(0);
      expect(await runAxe(page)).toEqual([]);
      await page.getByRole('button', { name: 'Delete ci-scoped' }).click();
      await page.getByRole('button', { name: 'Yes, delete' }).click();
      await expect.poll(() => page.getByLabel('Account token or API key').isVisible()).toBe(true);
      expect(await page.locator('#status').textContent()).toContain('signed out');
      expect((await gw.fetch('/api/v1/key', { key: ci.key })).status).toBe(401);

      await signIn(token);
      expect(await page.locator('#keys-scope').isHidden()).toBe(true);
      await page.getByLabel('New key name').fill('provisioner');
      await page.getByLabel('Management key (manages keys, calls no model)').check();
      await page.getByRole('button', { name: 'Create key' }).click();
      await expect.poll(() => page.getByLabel('Key value').inputValue()).toMatch(/^mgm-v1-/);
      const management = await page.getByLabel('Key value').inputValue();
      await page.getByRole('button', { name: 'I stored it, hide it' }).click();
      const row = page.locator('#keys-rows tr', { hasText: 'provisioner' });
      expect(await row.textContent()).toContain('Management');
      expect(await row.getByRole('button', { name: 'Edit limit of provisioner' }).count()).toBe(0);
      const self: any = await (await gw.fetch('/api/v1/key', { key: management })).json();
      expect(self.data).toMatchObject({ kind: 'management' });

      // Signed in with the management key: it manages API keys, not the account token's management keys.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await signIn(management);
      expect(await page.locator('#keys-scope').textContent()).toContain('management key');
      expect(await page.locator('#key-manage-field').isHidden()).toBe(true);
      expect(await page.getByRole('button', { name: 'Delete sibling' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Disable provisioner' }).count()).toBe(0);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});
