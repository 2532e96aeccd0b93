// Webhooks and the audit log through the API: an owner registers an endpoint (secret shown once), key and member
// changes arrive signed (verified with the Standard Webhooks library), attempts are listed, a member may not manage
// webhooks, a slow receiver does not hold up a request, and pending deliveries survive a gateway restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { openTestDatabase } from '../helpers/databases.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';
import { createAdminKey } from '../../src/services/admin-keys.js';

const ENV = {
  MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
  MODELGATE_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString('base64'),
  // The receivers listen on 127.0.0.1.
  MODELGATE_WEBHOOK_ALLOW_PRIVATE: 'true',
};

let gw: TestGateway;
let admin: string;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  gw = await startTestGateway({ env: ENV });
  admin = (await createAdminKey(gw.db, { name: 'ops' })).secret;
});
afterAll(async () => {
  await gw?.close();
  for (const r of receivers) await r.close();
});

async function call(gateway: TestGateway, method: string, path: string, key: string, body?: unknown) {
  const res = await gateway.fetch(`/api/v1${path}`, {
    method,
    key,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function receiver(answer?: (n: number) => number | Promise<number>) {
  const r = await startWebhookReceiver(answer);
  receivers.push(r);
  return r;
}

async function organization(gateway: TestGateway) {
  const owner = await gateway.createUser();
  const token = await gateway.createToken(owner.userId);
  const org = await call(gateway, 'POST', '/organizations', token, { name: 'Acme' });
  expect(org.status).toBe(201);
  return { owner, token, orgId: org.body.id as string };
}

describe('webhooks', () => {
  it('sends signed key and member events to an endpoint registered by the owner, and lists the attempts', async () => {
    const r = await receiver();
    const { owner, token, orgId } = await organization(gw);
    const created = await call(gw, 'POST', `/organizations/${orgId}/webhooks`, token, {
      url: r.url,
      event_types: ['key.created', 'member.added', 'member.removed', 'key.revoked'],
    });
    expect(created.status).toBe(201);
    const { secret, id: webhookId } = created.body;
    expect(secret).toMatch(/^whsec_/);
    expect(created.body).toMatchObject({ budget_thresholds: [0.5, 0.8, 1], credits_low_usd: 1, disabled: false });
    const listed = await call(gw, 'GET', `/organizations/${orgId}/webhooks`, token);
    expect(listed.body.data).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const key = await call(gw, 'POST', '/api-keys', token, { name: 'ci', organization_id: orgId });
    expect(key.status).toBe(201);
    const grace = await gw.createUser();
    expect(
      (await call(gw, 'PUT', `/organizations/${orgId}/members/${grace.userId}`, token, { role: 'member' })).status,
    ).toBe(200);
    expect((await call(gw, 'DELETE', `/organizations/${orgId}/members/${grace.userId}`, token)).status).toBe(200);
    await r.waitFor(3);
    const events = r.received.map((x) => new Webhook(secret).verify(x.body, x.headers) as any);
    expect(events.map((e) => e.type).sort()).toEqual(['key.created', 'member.added', 'member.removed']);
    const keyEvent = events.find((e) => e.type === 'key.created');
    expect(keyEvent.data).toMatchObject({ organization_id: orgId, key_id: key.body.key_id, member_id: owner.userId });
    expect(Date.parse(keyEvent.timestamp)).not.toBeNaN();
    expect(r.received.map((x) => x.body).join('')).not.toContain(key.body.key);

    // Verification fails under another secret: the signature is the endpoint's own.
    const rotated = await call(gw, 'POST', `/organizations/${orgId}/webhooks/${webhookId}/rotate-secret`, token);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(secret);
    expect(() => new Webhook(rotated.body.secret).verify(r.received[0].body, r.received[0].headers)).toThrow();

    const deliveries = await call(gw, 'GET', `/organizations/${orgId}/webhooks/${webhookId}/deliveries?limit=2`, token);
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.data).toHaveLength(2);
    expect(deliveries.body.data[0]).toMatchObject({
      attempt: 1,
      status_code: 204,
      error: null,
      delivery_status: 'delivered',
    });
    expect(deliveries.body.next_cursor).not.toBeNull();
    const next = await call(
      gw,
      'GET',
      `/organizations/${orgId}/webhooks/${webhookId}/deliveries?cursor=${deliveries.body.next_cursor}`,
      token,
    );
    expect(next.body.data).toHaveLength(1);
    expect(next.body.next_cursor).toBeNull();

    // Redelivered on demand.
    const eventId = next.body.data[0].event_id;
    const again = await call(
      gw,
      'POST',
      `/organizations/${orgId}/webhooks/${webhookId}/deliveries/${eventId}/redeliver`,
      token,
    );
    expect(again.body).toEqual({ redelivered: true, event_id: eventId });
    await r.waitFor(4);
    expect(r.received[3].headers['webhook-id']).toBe(eventId);

    expect((await call(gw, 'DELETE', `/organizations/${orgId}/webhooks/${webhookId}`, token)).body).toEqual({
      deleted: true,
      webhook_id: webhookId,
    });
    expect((await call(gw, 'GET', `/organizations/${orgId}/webhooks/${webhookId}/deliveries`, token)).status).toBe(404);
  });

  it('refuses a member, an unknown event type and a URL that is not http(s)', async () => {
    const { token, orgId } = await organization(gw);
    const ada = await gw.createUser();
    const adaToken = await gw.createToken(ada.userId);
    await call(gw, 'PUT', `/organizations/${orgId}/members/${ada.userId}`, token, { role: 'member' });
    const asMember = await call(gw, 'POST', `/organizations/${orgId}/webhooks`, adaToken, {
      url: 'https://example.com/hook',
      event_types: ['key.created'],
    });
    expect(asMember.status).toBe(403);
    expect(asMember.body.error.metadata).toMatchObject({ reason: 'role_required' });
    expect((await call(gw, 'GET', `/organizations/${orgId}/audit-log`, adaToken)).status).toBe(403);
    const unknown = await call(gw, 'POST', `/organizations/${orgId}/webhooks`, token, {
      url: 'https://example.com/hook',
      event_types: ['key.deleted'],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.metadata.field).toBe('event_types');
    const ftp = await call(gw, 'POST', `/organizations/${orgId}/webhooks`, token, {
      url: 'ftp://example.com/hook',
      event_types: ['key.created'],
    });
    expect(ftp.status).toBe(400);
  });

  it('answers a request while the receiver still holds the delivery of its event', async () => {
    let release: (status: number) => void = () => undefined;
    const held = new Promise<number>((resolve) => {
      release = resolve;
    });
    const r = await receiver(() => held);
    const { token, orgId } = await organization(gw);
    await call(gw, 'POST', `/organizations/${orgId}/webhooks`, token, { url: r.url, event_types: ['key.created'] });
    expect((await call(gw, 'POST', '/api-keys', token, { name: 'one', organization_id: orgId })).status).toBe(201);
    await r.waitFor(1);
    // The receiver has not answered the first delivery, and another key is made all the same.
    expect((await call(gw, 'POST', '/api-keys', token, { name: 'two', organization_id: orgId })).status).toBe(201);
    release(204);
    await r.waitFor(2);
  });
});

describe('webhooks for the operator', () => {
  it("creates, lists and deletes an organization's endpoint with an admin key, audited as that key", async () => {
    const r = await receiver();
    const { token, orgId } = await organization(gw);
    const created = await call(gw, 'POST', `/admin/organizations/${orgId}/webhooks`, admin, {
      url: r.url,
      event_types: ['key.created'],
    });
    expect(created.status).toBe(201);
    expect(created.body.secret).toMatch(/^whsec_/);
    await call(gw, 'POST', '/api-keys', token, { name: 'seen', organization_id: orgId });
    await r.waitFor(1);
    expect(() => new Webhook(created.body.secret).verify(r.received[0].body, r.received[0].headers)).not.toThrow();
    const listed = await call(gw, 'GET', `/admin/organizations/${orgId}/webhooks`, admin);
    expect(listed.body.data.map((w: any) => w.id)).toEqual([created.body.id]);
    expect((await call(gw, 'GET', `/admin/organizations/${orgId}/webhooks`, token)).status).toBe(403);
    const deleted = await call(gw, 'DELETE', `/admin/organizations/${orgId}/webhooks/${created.body.id}`, admin);
    expect(deleted.body).toEqual({ deleted: true, webhook_id: created.body.id });
    expect((await call(gw, 'DELETE', `/admin/organizations/${orgId}/webhooks/${created.body.id}`, admin)).status).toBe(
      404,
    );
    const log = await call(gw, 'GET', `/organizations/${orgId}/audit-log?action=webhook.deleted`, token);
    expect(log.body.data[0].actor.kind).toBe('admin_key');
    expect(log.body.data[0].before).toMatchObject({ id: created.body.id, url: r.url });
  });
});

describe('webhook deliveries across a restart', () => {
  it('delivers what a stopped gateway left pending once a gateway starts on the same database', async () => {
    const database = await openTestDatabase('pglite', { migrated: true });
    const r = await receiver();
    try {
      const first = await startTestGateway({ database, env: { ...ENV, MODELGATE_WEBHOOK_DELIVERY: 'false' } });
      const { token, orgId } = await organization(first);
      const hook = await call(first, 'POST', `/organizations/${orgId}/webhooks`, token, {
        url: r.url,
        event_types: ['key.created'],
      });
      for (const name of ['a', 'b']) await call(first, 'POST', '/api-keys', token, { name, organization_id: orgId });
      await first.close();
      expect(r.received).toHaveLength(0);
      const second = await startTestGateway({ database, env: ENV });
      try {
        await r.waitFor(2);
        const names = r.received.map((x) => (new Webhook(hook.body.secret).verify(x.body, x.headers) as any).data.name);
        expect(names.sort()).toEqual(['a', 'b']);
      } finally {
        await second.close();
      }
    } finally {
      await database.close();
    }
  });
});

describe('audit log', () => {
  it('records who changed what, before and after, without secrets; filters by action and actor; pages', async () => {
    const { owner, token, orgId } = await organization(gw);
    const key = await call(gw, 'POST', '/api-keys', token, { name: 'ci', organization_id: orgId, limit: 5 });
    expect(key.status).toBe(201);
    const mgmt = await call(gw, 'POST', '/api-keys', token, {
      name: 'ops',
      organization_id: orgId,
      kind: 'management',
    });
    await call(gw, 'PATCH', `/api-keys/${key.body.key_id}`, mgmt.body.key, { limit: 10 });
    const hook = await call(gw, 'POST', `/organizations/${orgId}/webhooks`, token, {
      url: 'https://example.com/hook',
      event_types: ['key.created'],
    });

    const log = await call(gw, 'GET', `/organizations/${orgId}/audit-log`, token);
    expect(log.status).toBe(200);
    const actions = log.body.data.map((e: any) => e.action);
    expect(actions).toEqual(['webhook.created', 'key.updated', 'key.created', 'key.created', 'organization.created']);
    const updated = log.body.data[1];
    expect(updated.actor).toEqual({ kind: 'management_key', id: mgmt.body.key_id });
    expect(updated.target).toEqual({ type: 'key', id: key.body.key_id });
    expect(updated.before.credit_limit_nanos).toBe('5000000000');
    expect(updated.after.credit_limit_nanos).toBe('10000000000');
    const text = JSON.stringify(log.body);
    for (const secret of [key.body.key, mgmt.body.key, hook.body.secret, token]) expect(text).not.toContain(secret);
    expect(text).not.toContain('key_hash');
    expect(text).not.toContain('secret_ciphertext');

    const created = await call(gw, 'GET', `/organizations/${orgId}/audit-log?action=key.created&limit=1`, token);
    expect(created.body.data).toHaveLength(1);
    const older = await call(
      gw,
      'GET',
      `/organizations/${orgId}/audit-log?action=key.created&limit=1&cursor=${created.body.next_cursor}`,
      token,
    );
    expect(older.body.data[0].target.id).toBe(key.body.key_id);
    expect(older.body.next_cursor).toBeNull();
    const byKey = await call(gw, 'GET', `/organizations/${orgId}/audit-log?actor=${mgmt.body.key_id}`, token);
    expect(byKey.body.data.map((e: any) => e.action)).toEqual(['key.updated']);

    const operator = await call(
      gw,
      'GET',
      `/admin/audit-log?organization_id=${orgId}&action=organization.created`,
      admin,
    );
    expect(operator.status).toBe(200);
    expect(operator.body.data).toHaveLength(1);
    expect(operator.body.data[0].after).toMatchObject({ owner_user_id: owner.userId });
    expect((await call(gw, 'GET', '/admin/audit-log', token)).status).toBe(403);
  });

  it("records the operator API's changes with the admin key that made them", async () => {
    const user = await gw.createUser();
    const adminKeyId = (await gw.db.selectFrom('admin_keys').select('id').executeTakeFirstOrThrow()).id;
    expect(
      (await call(gw, 'POST', `/admin/users/${user.userId}/credits`, admin, { amount: 5, note: 'invoice' })).status,
    ).toBe(200);
    expect((await call(gw, 'POST', `/admin/users/${user.userId}/pass`, admin, { months: 1 })).status).toBe(200);
    const log = await call(gw, 'GET', `/admin/audit-log?actor=${adminKeyId}`, admin);
    const actions = log.body.data.map((e: any) => [e.action, e.organization_id]);
    expect(actions).toEqual(
      expect.arrayContaining([
        ['credits.granted', user.userId],
        ['pass.granted', user.userId],
      ]),
    );
  });
});
