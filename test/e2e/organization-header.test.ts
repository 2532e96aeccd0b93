// The account auth token acting in another organization with `X-Modelgate-Organization`: it reads that
// organization's credits, keys and usage and makes keys there, with its member's role deciding (a member sees its own
// keys and usage only); a key naming another organization is 403, an organization the user is not in is 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { createAdminKey } from '../../src/services/admin-keys.js';
import { grantCredits } from '../../src/repositories/credits.js';
import { settleGenerationBatch } from '../../src/repositories/settlements.js';
import type { NewGeneration } from '../../src/db/tables/generations.js';

let gw: TestGateway;
let admin: string;

beforeAll(async () => {
  gw = await startTestGateway({ env: { MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json' } });
  admin = (await createAdminKey(gw.db, { name: 'ops' })).secret;
});
afterAll(async () => {
  await gw?.close();
});

async function call(method: string, path: string, key: string, options: { org?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (options.org !== undefined) headers['x-modelgate-organization'] = options.org;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await gw.fetch(`/api/v1${path}`, {
    method,
    key,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function user() {
  const created = await gw.createUser();
  return { ...created, token: await gw.createToken(created.userId) };
}

/** A settled record of `keyId` in `org` (nothing to settle: the books are not what is read here). */
async function record(org: string, keyId: string, id: string): Promise<void> {
  const row: NewGeneration = {
    id,
    user_id: org,
    api_key_id: keyId,
    access_mode: 'credits',
    model: 'openai/gpt-4o-mini',
    provider: 'openai',
    upstream_model: 'gpt-4o-mini',
    upstream_id: null,
    streamed: false,
    finish_reason: 'stop',
    status: 'success',
    http_status: 200,
    error_code: null,
    error_message: null,
    prompt_tokens: 10,
    completion_tokens: 5,
    cost_nanos: 1_000n,
    reference_cost_nanos: null,
    latency_ms: 100,
    time_to_first_token_ms: null,
    app_title: null,
    app_referer: null,
    task_id: null,
  };
  await settleGenerationBatch(gw.db, [{ record: row, settle: 'none' }]);
}

describe('X-Modelgate-Organization', () => {
  it('lets the account token act in any organization of its user, as its role allows', async () => {
    const owner = await user();
    const ada = await user();
    const stranger = await user();
    const org = (
      await call('POST', '/admin/organizations', admin, { body: { name: 'Acme', owner_user_id: owner.userId } })
    ).body.id as string;
    await call('PUT', `/admin/organizations/${org}/members/${ada.userId}`, admin, { body: { role: 'member' } });
    await grantCredits(gw.db, { userId: org, amountNanos: 2_000_000_000n });

    // Credits: the organization's with the header, the personal organization's without it.
    expect((await call('GET', '/credits', owner.token, { org })).body.data.total_credits).toBe(2);
    expect((await call('GET', '/credits', owner.token)).body.data.total_credits).toBe(0);
    expect((await call('GET', '/credits', ada.token, { org })).body.data.total_credits).toBe(2);
    expect((await call('GET', '/credits', owner.token, { org: '' })).body.data.total_credits).toBe(0);

    // A key acts in its own organization only; a stranger learns nothing of the organization.
    const fromKey = await call('GET', '/credits', ada.key, { org });
    expect(fromKey).toMatchObject({ status: 403, body: { error: { metadata: { reason: 'account_token_required' } } } });
    expect((await call('GET', '/credits', ada.key, { org: ada.userId })).status).toBe(200);
    const notIn = await call('GET', '/credits', stranger.token, { org });
    expect(notIn).toMatchObject({ status: 404, body: { error: { metadata: { organization_id: org } } } });
    expect((await call('GET', '/credits', owner.token, { org: 'org_missing' })).status).toBe(404);

    // Keys made with the header belong to the organization and to the caller's member.
    const ownerKey = await call('POST', '/api-keys', owner.token, { org, body: { name: 'owner' } });
    expect(ownerKey.status).toBe(201);
    expect((await call('GET', '/key', ownerKey.body.key)).body.data).toMatchObject({
      organization_id: org,
      member_id: owner.userId,
    });
    const adaKey = await call('POST', '/api-keys', ada.token, { org, body: { name: 'ada' } });
    expect((await call('GET', '/key', adaKey.body.key)).body.data.organization_id).toBe(org);
    // A member cannot make a key for another member there.
    const forOwner = await call('POST', '/api-keys', ada.token, { org, body: { member_id: owner.userId } });
    expect(forOwner).toMatchObject({ status: 403, body: { error: { metadata: { reason: 'role_required' } } } });

    // Keys: an owner sees every member's, a member its own.
    const ownerList = await call('GET', '/api-keys', owner.token, { org });
    expect(ownerList.body.data.map((k: any) => k.key_id).sort()).toEqual(
      [ownerKey.body.key_id, adaKey.body.key_id].sort(),
    );
    const adaList = await call('GET', '/api-keys', ada.token, { org });
    expect(adaList.body.data.map((k: any) => k.key_id)).toEqual([adaKey.body.key_id]);
    expect((await call('DELETE', `/api-keys/${ownerKey.body.key_id}`, ada.token, { org })).status).toBe(404);

    // Usage: an owner reads the organization's, a member only its own keys'.
    await record(org, ownerKey.body.key_id, `gen-owner-${org}`);
    await record(org, adaKey.body.key_id, `gen-ada-${org}`);
    const requests = (body: any) => body.data.reduce((sum: number, row: any) => sum + row.requests, 0);
    expect(requests((await call('GET', '/activity', owner.token, { org })).body)).toBe(2);
    expect(requests((await call('GET', '/activity', ada.token, { org })).body)).toBe(1);
    expect(requests((await call('GET', '/activity', owner.token)).body)).toBe(0);
    expect((await call('GET', '/generations', ada.token, { org })).body.data.map((g: any) => g.id)).toEqual([
      `gen-ada-${org}`,
    ]);
    expect((await call('GET', '/generations', owner.token, { org })).body.data).toHaveLength(2);
    expect((await call('GET', `/generation?id=gen-owner-${org}`, ada.token, { org })).status).toBe(404);
    expect((await call('GET', `/generation?id=gen-owner-${org}`, owner.token, { org })).status).toBe(200);
    // The member's own key reads the same narrowed usage.
    expect(requests((await call('GET', '/activity', adaKey.body.key)).body)).toBe(1);

    // Removed from the organization, the token may no longer name it.
    await call('DELETE', `/organizations/${org}/members/${ada.userId}`, ada.token);
    expect((await call('GET', '/credits', ada.token, { org })).status).toBe(404);
  });
});
