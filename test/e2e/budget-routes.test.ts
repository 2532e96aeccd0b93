// Budgets over the API: the owner sets the organization's, owners and admins set members', a member reads its own;
// the operator does both; every change is audited; a budget set over the API refuses the next request that does not
// fit it (cached credentials learn of the change), and `limit_usd: null` removes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayWithUpstream, type TestGateway } from '../helpers/gateway.js';
import type { MockUpstream } from '../helpers/mock-upstream.js';
import { grantCredits } from '../../src/repositories/credits.js';

let gw: TestGateway;
let upstream: MockUpstream;
let admin: string;

let close: () => Promise<void>;

beforeAll(async () => {
  ({ gw, upstream, admin, close } = await startGatewayWithUpstream());
});
afterAll(() => close?.());

function call(method: string, path: string, key: string, body?: unknown) {
  return gw.api({ method, path, key, body });
}

async function user() {
  const made = await gw.createUser();
  return { ...made, token: await gw.createToken(made.userId) };
}

/** An organization with an owner, an admin and a member, and a key for the member. */
async function organization() {
  const [owner, lead, dev] = [await user(), await user(), await user()];
  const org = (await call('POST', '/admin/organizations', admin, { name: 'Acme', owner_user_id: owner.userId })).body
    .id as string;
  expect(
    (await call('PUT', `/admin/organizations/${org}/members/${lead.userId}`, admin, { role: 'admin' })).status,
  ).toBe(200);
  expect(
    (await call('PUT', `/admin/organizations/${org}/members/${dev.userId}`, admin, { role: 'member' })).status,
  ).toBe(200);
  const key = (
    await call('POST', '/api-keys', owner.token, { organization_id: org, member_id: dev.userId, name: 'ci' })
  ).body.key as string;
  await grantCredits(gw.db, { userId: org, amountNanos: 5_000_000_000n });
  return { org, owner, lead, dev, key };
}

function chat(key: string) {
  return gw.fetch('/api/v1/chat/completions', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'openai/gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
      stream: false,
      max_tokens: 10,
    }),
  });
}

describe('budgets over the member API', () => {
  it('the owner sets the organization budget, an admin may not; every member reads it', async () => {
    const { org, owner, lead, dev } = await organization();
    const set = await call('PUT', `/organizations/${org}/budget`, owner.token, { limit_usd: 500, reset: 'monthly' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ limit_usd: 500, reset: 'monthly', spent_usd: 0, remaining_usd: 500 });
    expect(set.body.resets_at).toMatch(/T00:00:00.000Z$/);
    const byAdmin = await call('PUT', `/organizations/${org}/budget`, lead.token, { limit_usd: 900 });
    expect(byAdmin.status).toBe(403);
    expect(byAdmin.body.error.metadata).toMatchObject({ reason: 'role_required', required_role: 'owner' });
    const read = await call('GET', `/organizations/${org}/budget`, dev.token);
    expect(read.body).toMatchObject({ limit_usd: 500, reset: 'monthly' });
    // A stranger learns nothing of it.
    const stranger = await user();
    expect((await call('GET', `/organizations/${org}/budget`, stranger.token)).status).toBe(404);
  });

  it("owners and admins set a member's budget; a member reads its own, not another's, and sets none", async () => {
    const { org, lead, dev, owner } = await organization();
    const set = await call('PUT', `/organizations/${org}/members/${dev.userId}/budget`, lead.token, {
      limit_usd: 50,
      reset: 'weekly',
    });
    expect(set).toMatchObject({ status: 200, body: { limit_usd: 50, reset: 'weekly' } });
    expect((await call('GET', `/organizations/${org}/members/${dev.userId}/budget`, dev.token)).body.limit_usd).toBe(
      50,
    );
    expect((await call('GET', `/organizations/${org}/members/${owner.userId}/budget`, dev.token)).status).toBe(403);
    const byMember = await call('PUT', `/organizations/${org}/members/${dev.userId}/budget`, dev.token, {
      limit_usd: 5000,
    });
    expect(byMember.status).toBe(403);
    expect((await call('PUT', `/organizations/${org}/budget`, dev.token, { limit_usd: 1 })).status).toBe(403);
  });

  it('an API key changes no budget; bad limits are 400', async () => {
    const { org, owner, key } = await organization();
    const byKey = await call('PUT', `/organizations/${org}/budget`, key, { limit_usd: 1 });
    expect(byKey.status).toBe(403);
    expect(byKey.body.error.metadata.reason).toBe('management_credential_required');
    expect((await call('PUT', `/organizations/${org}/budget`, owner.token, { limit_usd: -1 })).status).toBe(400);
    expect(
      (await call('PUT', `/organizations/${org}/budget`, owner.token, { limit_usd: 1, reset: 'hourly' })).status,
    ).toBe(400);
    expect((await call('PUT', `/organizations/${org}/budget`, owner.token, { reset: 'daily' })).status).toBe(400);
  });

  it('a budget set over the API refuses the next request that does not fit, naming it; null removes it', async () => {
    const { org, lead, dev, key } = await organization();
    upstream.always({
      kind: 'json',
      body: {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: 'gpt-test-2026',
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 10, total_tokens: 15 },
      },
    });
    const first = await chat(key);
    expect(first.status).toBe(200);
    await first.json();
    await call('PUT', `/organizations/${org}/members/${dev.userId}/budget`, lead.token, { limit_usd: 0.00001 });
    const refused = await chat(key);
    expect(refused.status).toBe(402);
    expect((await refused.json()).error.metadata).toMatchObject({ budget: 'member', limit: 0.00001 });
    const cleared = await call('PUT', `/organizations/${org}/members/${dev.userId}/budget`, lead.token, {
      limit_usd: null,
    });
    expect(cleared.body).toMatchObject({ limit_usd: null, reset: null, remaining_usd: null });
    const again = await chat(key);
    expect(again.status).toBe(200);
    await again.json();
  });

  it('every change is in the audit log with the fields before and after', async () => {
    const { org, owner } = await organization();
    await call('PUT', `/organizations/${org}/budget`, owner.token, { limit_usd: 10, reset: 'daily' });
    await call('PUT', `/organizations/${org}/budget`, owner.token, { limit_usd: null });
    const rows = await gw.db
      .selectFrom('audit_log')
      .select(['action', 'target_type', 'before', 'after'])
      .where('organization_id', '=', org)
      .where('action', '=', 'budget.changed')
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.target_type, r.before, r.after])).toEqual([
      ['organization_budget', { limit_usd: null, reset: null }, { limit_usd: 10, reset: 'daily' }],
      ['organization_budget', { limit_usd: 10, reset: 'daily' }, { limit_usd: null, reset: null }],
    ]);
  });
});

describe('budgets over the operator API', () => {
  it('the operator sets and reads the organization and member budgets; a user credential is refused', async () => {
    const { org, dev, owner } = await organization();
    const setOrg = await call('PUT', `/admin/organizations/${org}/budget`, admin, { limit_usd: 100, reset: 'never' });
    expect(setOrg.body).toMatchObject({ limit_usd: 100, reset: 'never', resets_at: null });
    expect((await call('GET', `/admin/organizations/${org}/budget`, admin)).body.limit_usd).toBe(100);
    const setMember = await call('PUT', `/admin/organizations/${org}/members/${dev.userId}/budget`, admin, {
      limit_usd: 20,
      reset: 'monthly',
    });
    expect(setMember.body).toMatchObject({ limit_usd: 20, reset: 'monthly' });
    expect((await call('GET', `/admin/organizations/${org}/members/${dev.userId}/budget`, admin)).body.limit_usd).toBe(
      20,
    );
    expect((await call('GET', `/admin/organizations/${org}/budget`, owner.token)).status).toBe(403);
    expect((await call('GET', `/admin/organizations/org_unknown/budget`, admin)).status).toBe(404);
    expect((await call('GET', `/admin/organizations/${org}/members/usr_unknown/budget`, admin)).status).toBe(404);
  });
});
