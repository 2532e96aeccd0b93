// The account page's organizations in headless Chromium: an owner creates an organization, invites two users (one by
// link, one by pasted token), both accept, the owner makes one an admin and a CI key for the other, the member list
// shows all three, and the switcher switches the keys and credits shown. A member sees itself and its own key only.
// axe-core finds no serious or critical violation. Skipped like account-page.test.ts when Chromium is absent.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const REQUIRED = process.env.CI === 'true';
const AVAILABLE = existsSync(CHROMIUM);
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-sync'];
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
if (!AVAILABLE && !REQUIRED) console.warn(`[browser] SKIPPED: no Chromium at ${CHROMIUM}.`);

describe.skipIf(!AVAILABLE && !REQUIRED)('account page organizations in headless Chromium', () => {
  let browser: Browser;
  let gw: TestGateway;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    if (!AVAILABLE) throw new Error(`CI=true requires Chromium at ${CHROMIUM}`);
    gw = await startTestGateway({ env: { MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json' } });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 30_000 });
  }, 90_000);
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await gw?.close();
  });

  async function signedIn(email: string, url = `${gw.url}/account`, credits = 0) {
    const user = await gw.createUser(email);
    const token = await gw.createToken(user.userId);
    if (credits > 0) await gw.grant(user.userId, credits);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    const page = await context.newPage();
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`${email}: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`${email}: uncaught ${err.message}`));
    await page.goto(url);
    await page.getByLabel('Account token or API key').fill(token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.locator('#org-switcher option').count()).toBeGreaterThan(0);
    return { ...user, page };
  }

  async function runAxe(page: Page): Promise<string[]> {
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

  const selectedOrganization = (page: Page) => page.locator('#org-switcher option:checked').textContent();

  it('creates an organization, invites two members, re-roles one, makes a CI key, and switches', async () => {
    const owner = await signedIn('owner@acme.test', `${gw.url}/account`, 1);
    const page = owner.page;
    await expect.poll(() => page.locator('#balance').textContent()).toBe('$1.0000');
    expect(await selectedOrganization(page)).toBe('owner@acme.test (personal)');
    // A personal organization has one member and no invitations.
    expect(await page.locator('#member-rows tr').count()).toBe(1);
    expect(await page.locator('#invitations').isHidden()).toBe(true);

    await page.getByLabel('New organization name').fill('Acme');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await expect.poll(() => selectedOrganization(page)).toBe('Acme');
    expect(await page.locator('#org-role').textContent()).toContain('owner of Acme');
    const org = await page.locator('#org-switcher').inputValue();
    expect(org).toMatch(/^org_/);
    await gw.grant(org, 7);

    // Two invitations: the token and the link are shown once; the pending list never shows a token.
    await page.getByLabel('Role of the invited member').selectOption('member');
    await page.getByRole('button', { name: 'Create invitation' }).click();
    await expect.poll(() => page.getByLabel('New invitation link').inputValue()).toContain('#invitation=mgi-v1-');
    const link = await page.getByLabel('New invitation link').inputValue();
    await page.getByRole('button', { name: 'I sent it, hide it' }).click();
    expect(await page.getByLabel('New invitation link').inputValue()).toBe('');
    await page.getByRole('button', { name: 'Create invitation' }).click();
    await expect.poll(() => page.getByLabel('New invitation token').inputValue()).toMatch(/^mgi-v1-/);
    const pasted = await page.getByLabel('New invitation token').inputValue();
    await page.getByRole('button', { name: 'I sent it, hide it' }).click();
    await expect.poll(() => page.locator('#invitation-rows tr').count()).toBe(2);
    expect(await page.locator('#invitation-rows').textContent()).not.toContain('mgi-v1-');
    expect(await runAxe(page)).toEqual([]);

    // Ada opens the link and accepts; Bob pastes the token.
    const ada = await signedIn('ada@acme.test', link);
    expect(await ada.page.getByLabel('Invitation token', { exact: true }).inputValue()).toMatch(/^mgi-v1-/);
    await ada.page.getByRole('button', { name: 'Accept invitation' }).click();
    await expect.poll(() => selectedOrganization(ada.page)).toBe('Acme');
    expect(await ada.page.locator('#org-role').textContent()).toContain('a member of Acme');
    expect(ada.page.url()).toBe(`${gw.url}/account`);
    const bob = await signedIn('bob@acme.test');
    await bob.page.getByLabel('Invitation token', { exact: true }).fill(pasted);
    await bob.page.getByRole('button', { name: 'Accept invitation' }).click();
    await expect.poll(() => selectedOrganization(bob.page)).toBe('Acme');

    // The owner makes Bob an admin and a CI key for Ada.
    await page.getByRole('button', { name: 'Reload' }).click();
    await expect.poll(() => page.locator('#member-rows tr').count()).toBe(3);
    expect(await page.locator('#invitation-rows tr').count()).toBe(0);
    await page.getByLabel('Role of bob@acme.test').selectOption('admin');
    await page.getByRole('button', { name: 'Change role of bob@acme.test' }).click();
    await expect
      .poll(() => page.locator('#member-rows tr', { hasText: 'bob@acme.test' }).textContent())
      .toContain('admin');
    await page.getByLabel('New key name').fill('ci');
    await page.getByLabel('For member').selectOption({ label: 'ada@acme.test' });
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.getByLabel('Key value').inputValue()).toMatch(/^mg-v1-/);
    const ciKey = await page.getByLabel('Key value').inputValue();
    await page.getByRole('button', { name: 'I stored it, hide it' }).click();
    const self: any = await (await gw.fetch('/api/v1/key', { key: ciKey })).json();
    expect(self.data).toMatchObject({ organization_id: org, member_id: ada.userId });
    await expect.poll(() => page.locator('#keys-rows tr', { hasText: 'ci' }).textContent()).toContain('ada@acme.test');

    // All three members with their roles.
    const rows = await page.locator('#member-rows tr').allTextContents();
    expect(rows.map((r) => r.split('@')[0])).toEqual(['owner', 'ada', 'bob'].map((n) => n));
    expect(rows.map((r) => /owner|admin|member/.exec(r.split('acme.test')[1])?.[0])).toEqual([
      'owner',
      'member',
      'admin',
    ]);
    expect(await page.locator('#balance').textContent()).toBe('$7.0000');

    // The switcher: the personal organization's credits and keys, then Acme's again.
    await page.getByLabel('Show organization').selectOption({ label: 'owner@acme.test (personal)' });
    await expect.poll(() => page.locator('#balance').textContent()).toBe('$1.0000');
    expect(await page.locator('#keys-rows').textContent()).not.toContain('ci');
    expect(await page.locator('#member-rows tr').count()).toBe(1);
    await page.getByLabel('Show organization').selectOption({ label: 'Acme' });
    await expect.poll(() => page.locator('#balance').textContent()).toBe('$7.0000');
    expect(await page.locator('#keys-rows').textContent()).toContain('ci');

    // Ada, a member, sees herself and her own key, and may leave; no invitations, no role changes.
    await ada.page.getByRole('button', { name: 'Reload' }).click();
    await expect.poll(() => ada.page.locator('#keys-rows tr').count()).toBe(1);
    expect(await ada.page.locator('#keys-rows').textContent()).toContain('ci');
    expect(await ada.page.locator('#member-rows tr').count()).toBe(1);
    expect(await ada.page.locator('#invitations').isHidden()).toBe(true);
    expect(await ada.page.getByRole('button', { name: 'Leave organization' }).count()).toBe(1);
    expect(await runAxe(ada.page)).toEqual([]);
    expect(problems).toEqual([]);
  }, 240_000);
});
