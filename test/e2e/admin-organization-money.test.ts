// The operator's credit and pass routes by organization: /admin/organizations/{id}/credits and .../pass reach a
// shared organization (which the routes by user cannot: it is no user) and a personal one; the routes by user keep
// working for a user's personal organization.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { createAdminKey } from '../../src/services/admin-keys.js';

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

describe('operator credits and pass by organization', () => {
  it('adds credits and grants, shows and revokes the pass of an organization', async () => {
    const owner = await gw.createUser();
    const org = (await call('POST', '/admin/organizations', admin, { name: 'Acme', owner_user_id: owner.userId })).body
      .id as string;

    // The route by user cannot reach a shared organization; the route by organization can.
    expect((await call('POST', `/admin/users/${org}/credits`, admin, { amount: 5 })).status).toBe(404);
    const added = await call('POST', `/admin/organizations/${org}/credits`, admin, { amount: 5, note: 'invoice 7' });
    expect(added).toMatchObject({ status: 200, body: { organization_id: org, amount: 5, balance: 5 } });
    const key = (await call('POST', '/api-keys', await gw.createToken(owner.userId), { organization_id: org })).body
      .key as string;
    expect((await call('GET', '/credits', key)).body.data.total_credits).toBe(5);
    const removal = await call('POST', `/admin/organizations/${org}/credits`, admin, { amount: -9 });
    expect(removal.status).toBe(409);

    // A personal organization by either route; the route by user is unchanged.
    const personal = await call('POST', `/admin/organizations/${owner.userId}/credits`, admin, { amount: 2 });
    expect(personal.body).toMatchObject({ organization_id: owner.userId, balance: 2 });
    const byUser = await call('POST', `/admin/users/${owner.userId}/credits`, admin, { amount: 1 });
    expect(byUser.body).toMatchObject({ user_id: owner.userId, balance: 3 });

    // The pass of the organization.
    expect((await call('GET', `/admin/organizations/${org}/pass`, admin)).body).toEqual({
      organization_id: org,
      active: false,
      periods: [],
    });
    const granted = await call('POST', `/admin/organizations/${org}/pass`, admin, { months: 2 });
    expect(granted).toMatchObject({ status: 200, body: { organization_id: org, active: true } });
    expect(granted.body.periods).toHaveLength(2);
    expect((await call('GET', '/pass/usage', key)).status).toBe(200);
    const revoked = await call('DELETE', `/admin/organizations/${org}/pass`, admin);
    expect(revoked.body).toEqual({ organization_id: org, revoked_periods: 2 });

    // Unknown organizations are 404 naming them; only an admin key opens these routes.
    const unknown = await call('POST', '/admin/organizations/org_missing/credits', admin, { amount: 1 });
    expect(unknown).toMatchObject({ status: 404, body: { error: { metadata: { organization_id: 'org_missing' } } } });
    expect((await call('GET', '/admin/organizations/org_missing/pass', admin)).status).toBe(404);
    expect((await call('POST', `/admin/organizations/${org}/credits`, key, { amount: 1 })).status).toBe(403);
  });
});
