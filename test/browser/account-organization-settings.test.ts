// The account page's organization settings in headless Chromium: model aliases (an owner names a catalog model, sees
// the gateway's reason for a name it refuses, and deletes the alias; signed in with an API key, the same
// organization's aliases are shown without the form), presets (an owner saves one and its next version, then deletes
// it; a key sees the list only), budgets (the owner sets and removes the organization's, each
// shown with its spend) and the audit log (owners and admins with the account token). axe-core finds no serious or
// critical violation. Skipped like account-page.test.ts when Chromium is absent.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_SUITES_RUN, launchChromium, seriousViolations, signedInPage } from '../helpers/account-browser.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

describe.skipIf(!BROWSER_SUITES_RUN)('account page organization settings in headless Chromium', () => {
  let browser: Browser;
  let gw: TestGateway;
  const contexts: BrowserContext[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    gw = await startTestGateway({ env: { MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json' } });
    browser = await launchChromium();
  }, 90_000);
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await gw?.close();
  });

  const signedIn = (credential: string): Promise<Page> =>
    signedInPage(browser, { url: gw.url, credential, problems, consoleErrors: false, contexts });

  it('an owner names a model, reads a refusal, and deletes the alias; a key sees the list only', async () => {
    const owner = await gw.createUser('aliases@acme.test');
    const page = await signedIn(await gw.createToken(owner.userId));
    await expect.poll(() => page.locator('#aliases-empty').isVisible()).toBe(true);
    // The model field suggests the catalog's ids.
    await expect.poll(() => page.locator('#alias-models option[value="openai/gpt-test"]').count()).toBe(1);

    await page.getByLabel('Alias name').fill('coder');
    await page.getByLabel('Catalog model').fill('openai/gpt-test');
    await page.getByLabel('Description').fill('Our coding model');
    await page.getByRole('button', { name: 'Save alias' }).click();
    await expect.poll(() => page.locator('#alias-rows tr').count()).toBe(1);
    expect(await page.locator('#alias-rows tr').first().textContent()).toContain('openai/gpt-test');
    expect(await page.locator('#status').textContent()).toBe('Alias coder now names openai/gpt-test.');

    // The gateway's own reason is shown for a name it refuses.
    await page.getByLabel('Alias name').fill('openai/gpt-test');
    await page.getByLabel('Catalog model').fill('openai/gpt-test');
    await page.getByRole('button', { name: 'Save alias' }).click();
    await expect.poll(() => page.locator('#error').textContent()).toContain('must be 1 to 64 letters');
    expect(await seriousViolations(page)).toEqual([]);

    const keyPage = await signedIn(owner.key);
    await expect.poll(() => keyPage.locator('#alias-rows tr').count()).toBe(1);
    expect(await keyPage.locator('#create-alias-form').isHidden()).toBe(true);
    expect(await keyPage.getByRole('button', { name: 'Delete alias coder' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Delete alias coder' }).click();
    await expect.poll(() => page.locator('#aliases-empty').isVisible()).toBe(true);
    const left = await gw.db.selectFrom('organization_aliases').selectAll().execute();
    expect(left).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('an owner saves a preset and its next version, reads a refusal, and deletes it; a key sees the list only', async () => {
    const owner = await gw.createUser('presets@acme.test');
    const page = await signedIn(await gw.createToken(owner.userId));
    await expect.poll(() => page.locator('#presets-empty').isVisible()).toBe(true);
    await expect.poll(() => page.locator('#preset-models option[value="openai/gpt-test"]').count()).toBe(1);

    await page.getByLabel('Preset slug').fill('coder');
    await page.getByLabel('Preset model').fill('openai/gpt-test');
    await page.getByLabel('System prompt').fill('Answer with code first.');
    await page.getByLabel('Temperature').fill('0.2');
    await page.getByLabel('Purpose').fill('Our coding model');
    await page.getByRole('button', { name: 'Save preset' }).click();
    await expect.poll(() => page.locator('#preset-rows tr').count()).toBe(1);
    expect(await page.locator('#status').textContent()).toBe(
      'Preset coder version 1 saved: send "@preset/coder" as the model.',
    );
    await page.getByLabel('Preset slug').fill('coder');
    await page.getByLabel('Preset model').fill('openai/gpt-test');
    await page.getByLabel('Max tokens').fill('500');
    await page.getByRole('button', { name: 'Save preset' }).click();
    await expect.poll(() => page.locator('#preset-rows tr td').first().textContent()).toBe('2');
    const saved = await gw.db.selectFrom('presets').select(['version', 'preset']).orderBy('version').execute();
    expect(saved.map((row) => row.preset)).toEqual([
      { model: 'openai/gpt-test', system: 'Answer with code first.', temperature: 0.2 },
      { model: 'openai/gpt-test', max_tokens: 500 },
    ]);

    // The gateway's own reason is shown for a model it refuses.
    await page.getByLabel('Preset slug').fill('other');
    await page.getByLabel('Preset model').fill('openai/no-such-model');
    await page.getByRole('button', { name: 'Save preset' }).click();
    await expect.poll(() => page.locator('#error').textContent()).toContain('not a catalog model');
    expect(await seriousViolations(page)).toEqual([]);

    const keyPage = await signedIn(owner.key);
    await expect.poll(() => keyPage.locator('#preset-rows tr').count()).toBe(1);
    expect(await keyPage.locator('#create-preset-form').isHidden()).toBe(true);
    expect(await keyPage.getByRole('button', { name: 'Delete preset coder' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Delete preset coder' }).click();
    await expect.poll(() => page.locator('#presets-empty').isVisible()).toBe(true);
    expect(await gw.db.selectFrom('presets').selectAll().execute()).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("the owner sets and removes the organization's budget; the audit log shows it; a key sees neither form nor log", async () => {
    const owner = await gw.createUser('budgets@acme.test');
    const page = await signedIn(await gw.createToken(owner.userId));
    const organizationBudget = () => page.locator('#budget-list div').first().textContent();
    await expect.poll(organizationBudget).toBe('OrganizationNo budget');
    expect(await page.locator('#budget-list div').nth(1).textContent()).toBe('YouNo budget');

    await page.getByLabel('Organization budget (USD)').fill('-3');
    await page.getByRole('button', { name: 'Save budget' }).click();
    await expect.poll(() => page.locator('#error').textContent()).toContain('0 or more');

    await page.getByLabel('Organization budget (USD)').fill('5');
    await page.getByLabel('Starts over').selectOption('weekly');
    await page.getByRole('button', { name: 'Save budget' }).click();
    await expect.poll(organizationBudget).toContain('$0.0000 of $5.0000 spent (weekly), $5.0000 left, starts over');
    const row = await gw.db
      .selectFrom('organizations')
      .select(['budget_limit_nanos', 'budget_reset'])
      .where('id', '=', owner.userId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ budget_limit_nanos: 5_000_000_000n, budget_reset: 'weekly' });

    await page.getByRole('button', { name: 'Reload' }).click();
    await expect.poll(() => page.locator('#audit-rows tr').count()).toBeGreaterThan(0);
    expect(await page.locator('#audit-rows tr').first().textContent()).toContain('budget.changed');
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Remove budget' }).click();
    await expect.poll(organizationBudget).toBe('OrganizationNo budget');

    const keyPage = await signedIn(owner.key);
    await expect.poll(() => keyPage.locator('#budget-list div').count()).toBeGreaterThan(0);
    expect(await keyPage.locator('#org-budget-form').isHidden()).toBe(true);
    expect(await keyPage.locator('#audit').isHidden()).toBe(true);
    expect(problems).toEqual([]);
  });
});
