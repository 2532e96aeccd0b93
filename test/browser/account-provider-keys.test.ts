// The account page's provider keys in headless Chromium: the owner saves the organization's own OpenAI key with a
// mode, sees it only masked (the key is gone from the page), an API key of the organization sees the list but no
// form, and the owner deletes it. axe-core finds no serious or critical violation. Skipped like the other browser
// tests when Chromium is absent.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_SUITES_RUN, launchChromium, seriousViolations, signedInPage } from '../helpers/account-browser.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

const OWN_KEY = 'sk-own-browser-0123456789-b7a6';

describe.skipIf(!BROWSER_SUITES_RUN)('account page provider keys in headless Chromium', () => {
  let browser: Browser;
  let gw: TestGateway;
  const problems: string[] = [];

  beforeAll(async () => {
    gw = await startTestGateway({
      env: {
        MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
        MODELGATE_ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64'),
      },
    });
    browser = await launchChromium();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  const signedIn = (credential: string): Promise<Page> => signedInPage(browser, { url: gw.url, credential, problems });

  it('saves a key masked, shows it to an API key without the form, and deletes it', async () => {
    const user = await gw.createUser('byok-owner@acme.test');
    const owner = await signedIn(await gw.createToken(user.userId));
    await expect.poll(() => owner.locator('#provider-keys-empty').isVisible()).toBe(true);

    await owner.getByLabel('Provider', { exact: true }).fill('openai');
    await owner.getByLabel('Provider API key').fill(OWN_KEY);
    await owner.getByLabel('Provider key mode').selectOption('only');
    await owner.getByRole('button', { name: 'Save provider key' }).click();
    await expect.poll(() => owner.locator('#provider-key-rows tr').count()).toBe(1);
    const row = owner.locator('#provider-key-rows tr');
    expect(await row.locator('th').textContent()).toBe('openai');
    expect((await row.locator('td').allTextContents()).slice(0, 2)).toEqual(['sk-…b7a6', 'only']);
    expect(await owner.getByLabel('Provider API key').inputValue()).toBe('');
    expect(await owner.content()).not.toContain(OWN_KEY);
    expect(await seriousViolations(owner)).toEqual([]);

    // An API key of the organization reads the list; setting and deleting take the owner's token.
    const reader = await signedIn(user.key);
    await expect.poll(() => reader.locator('#provider-key-rows tr').count()).toBe(1);
    expect(await reader.locator('#provider-key-form').isHidden()).toBe(true);
    expect(await reader.getByRole('button', { name: 'Delete openai key' }).count()).toBe(0);

    await owner.getByRole('button', { name: 'Delete openai key' }).click();
    await expect.poll(() => owner.locator('#provider-keys-empty').isVisible()).toBe(true);
    expect(await gw.db.selectFrom('provider_keys').selectAll().execute()).toEqual([]);
    expect(problems).toEqual([]);
  });
});
