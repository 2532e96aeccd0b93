// Pending invitations: an owner or admin lists them (never a token) and revokes one, whose token then makes no
// member; a member may do neither, nor may an API key; an accepted invitation is no longer pending.
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

async function user() {
  const created = await gw.createUser();
  return { ...created, token: await gw.createToken(created.userId) };
}

describe('organization invitations', () => {
  it('lists pending invitations without tokens and revokes one', async () => {
    const owner = await user();
    const ada = await user();
    const bob = await user();
    const org = (await call('POST', '/admin/organizations', admin, { name: 'Acme', owner_user_id: owner.userId })).body
      .id as string;
    const first = (await call('POST', `/organizations/${org}/invitations`, owner.token, { role: 'member' })).body;
    const second = (await call('POST', `/organizations/${org}/invitations`, owner.token, { role: 'admin' })).body;

    const listed = await call('GET', `/organizations/${org}/invitations`, owner.token);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((i: any) => [i.invitation_id, i.role, i.created_by])).toEqual([
      [second.invitation_id, 'admin', owner.userId],
      [first.invitation_id, 'member', owner.userId],
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(first.token);
    expect(JSON.stringify(listed.body)).not.toContain('token');

    // Accepted: no longer pending. A member lists and revokes nothing; an API key manages no member.
    expect((await call('POST', `/invitations/${first.token}/accept`, ada.token)).status).toBe(200);
    const afterAccept = await call('GET', `/organizations/${org}/invitations`, owner.token);
    expect(afterAccept.body.data.map((i: any) => i.invitation_id)).toEqual([second.invitation_id]);
    const byMember = await call('GET', `/organizations/${org}/invitations`, ada.token);
    expect(byMember).toMatchObject({ status: 403, body: { error: { metadata: { reason: 'role_required' } } } });
    const revokeByMember = await call('DELETE', `/organizations/${org}/invitations/${second.invitation_id}`, ada.token);
    expect(revokeByMember.status).toBe(403);
    const byKey = await call('GET', `/organizations/${org}/invitations`, owner.key);
    expect(byKey).toMatchObject({
      status: 403,
      body: { error: { metadata: { reason: 'management_credential_required' } } },
    });
    expect((await call('GET', `/organizations/${org}/invitations`, bob.token)).status).toBe(404);

    // Revoked: its token makes no member, and it cannot be revoked twice.
    const revoked = await call('DELETE', `/organizations/${org}/invitations/${second.invitation_id}`, owner.token);
    expect(revoked).toMatchObject({ status: 200, body: { revoked: true, invitation_id: second.invitation_id } });
    expect((await call('POST', `/invitations/${second.token}/accept`, bob.token)).status).toBe(404);
    const again = await call('DELETE', `/organizations/${org}/invitations/${second.invitation_id}`, owner.token);
    expect(again).toMatchObject({
      status: 404,
      body: { error: { metadata: { invitation_id: second.invitation_id } } },
    });
    // An accepted invitation is not revocable either.
    expect((await call('DELETE', `/organizations/${org}/invitations/${first.invitation_id}`, owner.token)).status).toBe(
      404,
    );
    expect((await call('GET', `/organizations/${org}/invitations`, owner.token)).body.data).toEqual([]);
  });
});
