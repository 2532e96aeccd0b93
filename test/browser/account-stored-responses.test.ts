// The account page's stored responses in headless Chromium: a member deletes every response it stored in the chosen
// organization after confirming (Cancel deletes nothing), another member's stay, and a management key does not see
// the section. axe-core finds no serious or critical violation. Skipped like the other browser tests when Chromium is
// absent.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../src/auth/issue-credentials.js';
import { putMembership } from '../../src/repositories/organizations.js';
import { insertStoredResponse } from '../../src/repositories/stored-responses.js';
import { BROWSER_SUITES_RUN, launchChromium, seriousViolations, signedInPage } from '../helpers/account-browser.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

describe.skipIf(!BROWSER_SUITES_RUN)('account page stored responses in headless Chromium', () => {
  let browser: Browser;
  let gw: TestGateway;
  const problems: string[] = [];

  beforeAll(async () => {
    gw = await startTestGateway({ env: { MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json' } });
    browser = await launchChromium();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  const signedIn = (credential: string): Promise<Page> => signedInPage(browser, { url: gw.url, credential, problems });

  const store = (id: string, organizationId: string, memberUserId: string) =>
    insertStoredResponse(gw.db, {
      id,
      organization_id: organizationId,
      member_user_id: memberUserId,
      api_key_id: null,
      model: 'openai/gpt-test',
      previous_response_id: null,
      root_id: id,
      input_items: JSON.stringify([{ type: 'message', role: 'user', content: 'hi' }]),
      response: JSON.stringify({ id, object: 'response', output: [] }),
      expires_at: new Date(Date.now() + 86_400_000),
    });
  const remaining = async () =>
    (await gw.db.selectFrom('stored_responses').select('id').orderBy('id').execute()).map((r) => r.id);

  it("deletes the member's own stored responses after confirming; another member's stay", async () => {
    const owner = await gw.createUser('stored-owner@acme.test');
    const colleague = await gw.createUser('stored-colleague@acme.test');
    await putMembership(gw.db, { organizationId: owner.userId, userId: colleague.userId, role: 'member' });
    await store('gen-mine-1', owner.userId, owner.userId);
    await store('gen-mine-2', owner.userId, owner.userId);
    await store('gen-theirs', owner.userId, colleague.userId);

    const page = await signedIn(await gw.createToken(owner.userId));
    const purge = page.getByRole('button', { name: 'Delete my stored responses', exact: true });
    await expect.poll(() => purge.isVisible()).toBe(true);
    await purge.click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    expect(await remaining()).toEqual(['gen-mine-1', 'gen-mine-2', 'gen-theirs']);

    await purge.click();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Yes, delete my stored responses' }).click();
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/^Deleted 2 stored responses in /);
    expect(await remaining()).toEqual(['gen-theirs']);
    expect(await purge.isVisible()).toBe(true);

    // A management key opens no stored response: no section.
    const manager = await issueApiKey(gw.db, {
      organizationId: owner.userId,
      memberUserId: owner.userId,
      name: 'keys',
      kind: 'management',
    });
    const managerPage = await signedIn(manager.secret);
    await expect.poll(() => managerPage.locator('#stored-responses').isHidden()).toBe(true);
    expect(problems).toEqual([]);
  });
});
