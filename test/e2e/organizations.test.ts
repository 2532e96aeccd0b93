// Organizations end to end: the operator creates one, its owner invites a member with a one-time token, keys are
// made for members (owners and admins for anyone, a member for itself), GET /key names organization and member,
// the role rules hold, and a removed member's keys stop working at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { createAdminKey } from '../../src/services/admin-keys.js';
import { grantCredits } from '../../src/repositories/credits.js';

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

async function member() {
  const user = await gw.createUser();
  return { ...user, token: await gw.createToken(user.userId) };
}

describe('organizations', () => {
  it('works end to end for an owner and a member, by invitation, with keys of each', async () => {
    const owner = await member();
    const ada = await member();

    const created = await call('POST', '/admin/organizations', admin, { name: 'Acme', owner_user_id: owner.userId });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Acme', personal: false });
    const org: string = created.body.id;
    const orgs = await call('GET', '/organizations', owner.token);
    expect(orgs.body.data.map((o: any) => [o.id, o.personal, o.role])).toEqual([
      [owner.userId, true, 'owner'],
      [org, false, 'owner'],
    ]);

    // A one-time invitation, accepted by a signed-in user.
    const invitation = await call('POST', `/organizations/${org}/invitations`, owner.token, { role: 'member' });
    expect(invitation.status).toBe(201);
    expect(invitation.body.token).toMatch(/^mgi-v1-/);
    const stored = await gw.db.selectFrom('organization_invitations').selectAll().executeTakeFirstOrThrow();
    expect(stored.token_hash).not.toContain(invitation.body.token.slice(7));
    expect((await call('POST', `/invitations/${invitation.body.token}/accept`, ada.key)).status).toBe(403);
    const accepted = await call('POST', `/invitations/${invitation.body.token}/accept`, ada.token);
    expect(accepted).toMatchObject({ status: 200, body: { id: org, role: 'member' } });
    expect((await call('POST', `/invitations/${invitation.body.token}/accept`, ada.token)).status).toBe(404);

    // Owners see every member, a member only itself.
    const all = await call('GET', `/organizations/${org}/members`, owner.token);
    expect(all.body.data.map((m: any) => [m.user_id, m.role])).toEqual([
      [owner.userId, 'owner'],
      [ada.userId, 'member'],
    ]);
    const own = await call('GET', `/organizations/${org}/members`, ada.token);
    expect(own.body.data.map((m: any) => m.user_id)).toEqual([ada.userId]);

    // The owner makes a key of the organization for the member; it spends the organization's credits.
    const forAda = await call('POST', '/api-keys', owner.token, {
      organization_id: org,
      member_id: ada.userId,
      name: 'ci',
    });
    expect(forAda.status).toBe(201);
    await grantCredits(gw.db, { userId: org, amountNanos: 3_000_000_000n });
    const info = await call('GET', '/key', forAda.body.key);
    expect(info.body.data).toMatchObject({ organization_id: org, member_id: ada.userId, is_free_tier: false });
    expect((await call('GET', '/credits', forAda.body.key)).body.data.total_credits).toBe(3);
    // The member makes keys for itself only; a key never makes one in another organization.
    const forOwner = await call('POST', '/api-keys', ada.token, { organization_id: org, member_id: owner.userId });
    expect(forOwner).toMatchObject({ status: 403, body: { error: { metadata: { reason: 'role_required' } } } });
    expect((await call('POST', '/api-keys', ada.token, { organization_id: org })).status).toBe(201);
    const adaManager = await call('POST', '/api-keys', ada.token, { kind: 'management' });
    const fromKey = await call('POST', '/api-keys', adaManager.body.key, { organization_id: org });
    expect(fromKey).toMatchObject({ status: 403, body: { error: { metadata: { reason: 'account_token_required' } } } });
    // A member manages its own keys only: another member's key is not listed and answers as a missing one.
    const ownerKey = await call('POST', '/api-keys', owner.token, { organization_id: org, name: 'owner' });
    const adaOrgManager = await call('POST', '/api-keys', ada.token, { organization_id: org, kind: 'management' });
    const seen = await call('GET', '/api-keys', adaOrgManager.body.key);
    expect(seen.body.data.map((k: any) => k.member_id)).toEqual([ada.userId, ada.userId, ada.userId]);
    expect(seen.body.data.map((k: any) => k.key_id)).not.toContain(ownerKey.body.key_id);
    expect((await call('DELETE', `/api-keys/${ownerKey.body.key_id}`, adaOrgManager.body.key)).status).toBe(404);
    expect(
      (await call('PATCH', `/api-keys/${ownerKey.body.key_id}`, adaOrgManager.body.key, { disabled: true })).status,
    ).toBe(404);
    const ownerSees = await call('GET', '/api-keys', ownerKey.body.key);
    expect(ownerSees.body.data).toHaveLength(4);
    // Nor does it act there: its organizations are its own.
    expect((await call('GET', '/organizations', ada.key)).body.data.map((o: any) => o.id)).toEqual([ada.userId]);
    expect((await call('GET', `/organizations/${org}/members`, ada.key)).status).toBe(404);

    // Role rules: a member changes nobody, an inference key changes nothing, the last owner stays.
    expect(
      (await call('PUT', `/organizations/${org}/members/${owner.userId}`, ada.token, { role: 'member' })).status,
    ).toBe(403);
    expect(
      (await call('PUT', `/organizations/${org}/members/${ada.userId}`, owner.key, { role: 'admin' })).body.error
        .metadata.reason,
    ).toBe('management_credential_required');
    const lastOwner = await call('DELETE', `/organizations/${org}/members/${owner.userId}`, owner.token);
    expect(lastOwner).toMatchObject({ status: 409, body: { error: { metadata: { reason: 'last_owner' } } } });
    const promoted = await call('PUT', `/organizations/${org}/members/${ada.userId}`, owner.token, { role: 'admin' });
    expect(promoted).toMatchObject({ status: 200, body: { user_id: ada.userId, role: 'admin' } });
    // An admin neither makes an owner nor removes one.
    expect(
      (await call('PUT', `/organizations/${org}/members/${ada.userId}`, ada.token, { role: 'owner' })).status,
    ).toBe(403);
    expect((await call('DELETE', `/organizations/${org}/members/${owner.userId}`, ada.token)).status).toBe(403);
    // A personal organization takes no other member; an organization one is not in is 404.
    expect((await call('POST', `/organizations/${owner.userId}/invitations`, owner.token, {})).status).toBe(409);
    expect((await call('GET', `/organizations/${owner.userId}/members`, ada.token)).status).toBe(404);

    // Removing the member revokes its keys of the organization at once; its personal key keeps working.
    const members = await call('GET', `/admin/organizations/${org}/members`, admin);
    expect(members.body.data).toHaveLength(2);
    expect((await call('DELETE', `/organizations/${org}/members/${ada.userId}`, owner.token)).status).toBe(200);
    expect((await call('GET', '/key', forAda.body.key)).status).toBe(401);
    expect((await call('GET', '/key', ada.key)).status).toBe(200);
    expect((await call('GET', `/organizations/${org}/members`, ada.token)).status).toBe(404);
  });

  it('lets the operator add, re-role and remove members, but never the last owner', async () => {
    const owner = await member();
    const bob = await member();
    const org = (await call('POST', '/admin/organizations', admin, { name: 'Ops', owner_user_id: owner.userId })).body
      .id;
    expect((await call('POST', '/admin/organizations', admin, { name: 'X', owner_user_id: 'usr_nobody' })).status).toBe(
      404,
    );
    const added = await call('PUT', `/admin/organizations/${org}/members/${bob.userId}`, admin, { role: 'member' });
    expect(added).toMatchObject({ status: 200, body: { user_id: bob.userId, role: 'member', email: bob.email } });
    const demote = await call('PUT', `/admin/organizations/${org}/members/${owner.userId}`, admin, { role: 'admin' });
    expect(demote).toMatchObject({ status: 409, body: { error: { metadata: { reason: 'last_owner' } } } });
    expect(
      (await call('PUT', `/admin/organizations/${org}/members/${bob.userId}`, admin, { role: 'boss' })).status,
    ).toBe(400);
    expect((await call('DELETE', `/admin/organizations/${org}/members/${bob.userId}`, admin)).status).toBe(200);
    expect((await call('DELETE', `/admin/organizations/${org}/members/${bob.userId}`, admin)).status).toBe(404);
    expect((await call('GET', '/admin/organizations/org_nothing/members', admin)).status).toBe(404);
    expect((await call('GET', `/admin/organizations/${org}/members`, owner.token)).status).toBe(403);
  });
});
