// Usage reports by organization, member and key: GET /organizations/{id}/usage for members (an owner reads everyone's,
// a member only its own keys'), and the operator's GET /admin/usage grouped and filtered by organization, member and
// key. Both from the daily totals (bounds at UTC midnights) and from the records (bounds inside a day).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { createAdminKey } from '../../src/services/admin-keys.js';
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

async function call(method: string, path: string, key: string, body?: unknown) {
  const res = await gw.fetch(`/api/v1${path}`, {
    method,
    key,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function records(org: string, keyId: string, count: number, costNanos: bigint): Promise<void> {
  const rows: NewGeneration[] = Array.from({ length: count }, (_, i) => ({
    id: `gen-${keyId}-${i}`,
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
    cost_nanos: costNanos,
    reference_cost_nanos: null,
    latency_ms: 100,
    time_to_first_token_ms: null,
    app_title: null,
    app_referer: null,
    task_id: null,
  }));
  await settleGenerationBatch(
    gw.db,
    rows.map((record) => ({ record, settle: 'none' as const })),
  );
}

const DAY = 86_400_000;

describe('usage by organization, member and key', () => {
  it('groups and filters, and a member reads only its own', async () => {
    const owner = await gw.createUser();
    const ada = await gw.createUser();
    const ownerToken = await gw.createToken(owner.userId);
    const adaToken = await gw.createToken(ada.userId);
    const org = (await call('POST', '/admin/organizations', admin, { name: 'Acme', owner_user_id: owner.userId })).body
      .id as string;
    await call('PUT', `/admin/organizations/${org}/members/${ada.userId}`, admin, { role: 'member' });
    const ownerKey = (await call('POST', '/api-keys', ownerToken, { organization_id: org, name: 'o' })).body;
    const adaKey = (await call('POST', '/api-keys', adaToken, { organization_id: org, name: 'a' })).body;
    const adaCi = (await call('POST', '/api-keys', ownerToken, { organization_id: org, member_id: ada.userId })).body;
    await records(org, ownerKey.key_id, 1, 1_000_000n);
    await records(org, adaKey.key_id, 2, 1_000_000n);
    await records(org, adaCi.key_id, 3, 1_000_000n);
    // Another organization's usage (ada's personal key) never counts in Acme's.
    await records(ada.userId, ada.keyId, 4, 1_000_000n);

    const midnight = Math.floor(Date.now() / DAY) * DAY;
    const ranges = [
      // Whole UTC days: the daily totals.
      `from=${new Date(midnight - DAY).toISOString()}&to=${new Date(midnight + DAY).toISOString()}`,
      // Inside a day: the records.
      `from=${new Date(Date.now() - 3_600_000).toISOString()}&to=${new Date(Date.now() + 3_600_000).toISOString()}`,
    ];
    for (const range of ranges) {
      const byMember = await call('GET', `/organizations/${org}/usage?${range}&group_by=member`, ownerToken);
      expect(byMember.status).toBe(200);
      const requests = (body: any) => Object.fromEntries(body.data.map((r: any) => [r.group, r.requests]));
      expect(requests(byMember.body)).toEqual({ [owner.userId]: 1, [ada.userId]: 5 });
      expect(byMember.body.group_by).toBe('member');
      const byKey = await call(
        'GET',
        `/organizations/${org}/usage?${range}&group_by=key&member_id=${ada.userId}`,
        ownerToken,
      );
      expect(requests(byKey.body)).toEqual({ [adaKey.key_id]: 2, [adaCi.key_id]: 3 });
      const oneKey = await call(
        'GET',
        `/organizations/${org}/usage?${range}&group_by=model&key_id=${adaCi.key_id}`,
        ownerToken,
      );
      expect(oneKey.body.data).toMatchObject([{ group: 'openai/gpt-4o-mini', requests: 3, cost: 0.003 }]);

      // A member: its own keys only, whatever it asks for; another member's usage is refused.
      const own = await call('GET', `/organizations/${org}/usage?${range}&group_by=member`, adaToken);
      expect(requests(own.body)).toEqual({ [ada.userId]: 5 });
      const byAdaKey = await call('GET', `/organizations/${org}/usage?${range}&group_by=key`, adaKey.key);
      expect(requests(byAdaKey.body)).toEqual({ [adaKey.key_id]: 2, [adaCi.key_id]: 3 });
      const other = await call('GET', `/organizations/${org}/usage?${range}&member_id=${owner.userId}`, adaToken);
      expect(other).toMatchObject({ status: 403, body: { error: { metadata: { reason: 'role_required' } } } });

      // The operator: by organization, by member across organizations, filtered by organization.
      const byOrg = await call('GET', `/admin/usage?${range}&group_by=organization`, admin);
      expect(requests(byOrg.body)).toMatchObject({ [org]: 6, [ada.userId]: 4 });
      const adaEverywhere = await call('GET', `/admin/usage?${range}&group_by=member&member_id=${ada.userId}`, admin);
      expect(requests(adaEverywhere.body)).toEqual({ [ada.userId]: 9 });
      const adaInOrg = await call(
        'GET',
        `/admin/usage?${range}&group_by=organization&member_id=${ada.userId}&organization_id=${org}`,
        admin,
      );
      expect(requests(adaInOrg.body)).toEqual({ [org]: 5 });
    }

    // Refusals: not a member, a NUL character, an unknown group.
    const stranger = await gw.createToken((await gw.createUser()).userId);
    const range = ranges[0];
    expect((await call('GET', `/organizations/${org}/usage?${range}`, stranger)).status).toBe(404);
    const nul = await call('GET', `/admin/usage?${range}&key_id=a%00b`, admin);
    expect(nul).toMatchObject({ status: 400, body: { error: { metadata: { field: 'key_id' } } } });
    expect((await call('GET', `/organizations/${org}/usage?${range}&group_by=user_agent`, ownerToken)).status).toBe(
      400,
    );
  });
});
