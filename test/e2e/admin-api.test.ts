// The operator API (/api/v1/admin/...): admin keys and their separation from user credentials, users, credits,
// pass, a user's keys and the usage report, end to end.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayWithUpstream, type TestGateway } from '../helpers/gateway.js';
import type { MockUpstream } from '../helpers/mock-upstream.js';
import { createAdminKey, deleteAdminKey } from '../../src/services/admin-keys.js';
import { listLedger } from '../../src/repositories/credits.js';

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

describe('admin keys and user credentials are kept apart', () => {
  it("refuses an admin key on user routes with 403 (it is nobody's wallet)", async () => {
    expect(admin).toMatch(/^mga-v1-/);
    for (const [method, path] of [
      ['GET', '/api-keys'],
      ['GET', '/key'],
      ['GET', '/credits'],
    ] as const) {
      const res = await call(method, path, admin);
      expect(res.status, path).toBe(403);
      expect(res.body.error.metadata.reason).toBe('user_credential_required');
    }
    const chat = await call('POST', '/chat/completions', admin, {
      model: 'openai/gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(chat.status).toBe(403);
    expect(upstream.requests).toHaveLength(0);
  });

  it('refuses an API key and an account token on admin routes with 403', async () => {
    const user = await gw.createUser();
    const token = await gw.createToken(user.userId);
    for (const key of [user.key, token]) {
      const res = await call('GET', '/admin/users', key);
      expect(res.status).toBe(403);
      expect(res.body.error.metadata.reason).toBe('admin_key_required');
    }
    expect((await call('GET', '/admin/users', 'mga-v1-unknown')).status).toBe(401);
  });

  it('refuses a deleted admin key with 401 on its next request', async () => {
    const { row, secret } = await createAdminKey(gw.db, { name: 'temp' });
    expect((await call('GET', '/admin/users', secret)).status).toBe(200);
    expect(await deleteAdminKey(gw.db, gw.parts.credentials, { keyId: row.id, now: new Date() })).toBe(true);
    expect((await call('GET', '/admin/users', secret)).status).toBe(401);
  });
});

describe('users', () => {
  it('creates, refuses a taken email with 409, gets by id and by email, and pages the list', async () => {
    const a = await call('POST', '/admin/users', admin, { email: 'Alice@Example.com' });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ email: 'alice@example.com', user_id: expect.stringMatching(/^usr_/) });
    expect((await call('POST', '/admin/users', admin, { email: 'alice@example.com' })).status).toBe(409);
    expect((await call('POST', '/admin/users', admin, { email: 'not-an-email' })).status).toBe(400);
    expect((await call('GET', `/admin/users/${a.body.user_id}`, admin)).body).toEqual(a.body);
    expect((await call('GET', '/admin/users/usr_nope', admin)).status).toBe(404);
    expect((await call('GET', '/admin/users?email=ALICE@example.com', admin)).body).toEqual({
      data: [a.body],
      next_cursor: null,
    });
    expect((await call('GET', '/admin/users?email=nobody@example.com', admin)).body.data).toEqual([]);

    await call('POST', '/admin/users', admin, { email: 'bob@example.com' });
    // Two users within one millisecond (timestamps have microseconds): paging must not skip either.
    await sql`insert into users (id, email, created_at) values
      ('usr_micro_a', 'micro-a@example.com', '2026-01-01T00:00:00.123789Z'),
      ('usr_micro_b', 'micro-b@example.com', '2026-01-01T00:00:00.123456Z')`.execute(gw.db);
    const seen = new Set<string>();
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: any = await call('GET', `/admin/users?limit=1${cursor ? `&cursor=${cursor}` : ''}`, admin);
      expect(page.status).toBe(200);
      expect(page.body.data.length).toBeLessThanOrEqual(1);
      for (const u of page.body.data) seen.add(u.user_id);
      cursor = page.body.next_cursor;
      pages += 1;
    } while (cursor !== null && pages < 100);
    const total = Number(
      (
        await gw.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(seen.size).toBe(total);
    expect(seen.has('usr_micro_a') && seen.has('usr_micro_b')).toBe(true);
    expect((await call('GET', '/admin/users?cursor=garbage', admin)).status).toBe(400);
  });
});

describe('credits', () => {
  it('adds and removes credits with a note, refuses an overdraft with 409, and pages the ledger', async () => {
    const user = await gw.createUser();
    const added = await call('POST', `/admin/users/${user.userId}/credits`, admin, { amount: 5, note: 'invoice 7' });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ user_id: user.userId, amount: 5, balance: 5 });
    expect((await call('POST', `/admin/users/${user.userId}/credits`, admin, { amount: -2 })).body.balance).toBe(3);
    const over = await call('POST', `/admin/users/${user.userId}/credits`, admin, { amount: -100 });
    expect(over.status).toBe(409);
    expect(over.body.error.metadata).toMatchObject({ reason: 'insufficient_credits', available: 3 });
    expect((await call('POST', `/admin/users/${user.userId}/credits`, admin, { amount: 0 })).status).toBe(400);
    expect((await call('POST', '/admin/users/usr_nope/credits', admin, { amount: 1 })).status).toBe(404);
    // The user sees the same balance.
    expect((await call('GET', '/credits', user.key)).body.data).toMatchObject({ total_credits: 3 });

    const first = await call('GET', `/admin/users/${user.userId}/ledger?limit=1`, admin);
    expect(first.body.data).toEqual([expect.objectContaining({ kind: 'adjustment', amount: -2, note: null })]);
    const second = await call(
      'GET',
      `/admin/users/${user.userId}/ledger?limit=1&cursor=${first.body.next_cursor}`,
      admin,
    );
    expect(second.body.data).toEqual([expect.objectContaining({ kind: 'grant', amount: 5, note: 'invoice 7' })]);
    expect(second.body.next_cursor).toBeNull();
    expect((await call('GET', `/admin/users/${user.userId}/ledger?cursor=9999999999999999999`, admin)).status).toBe(
      400,
    );
  });
});

describe('pass', () => {
  it('grants months, shows them, and revokes them', async () => {
    const user = await gw.createUser();
    const granted = await call('POST', `/admin/users/${user.userId}/pass`, admin, { months: 2 });
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({ user_id: user.userId, active: true });
    expect(granted.body.periods).toHaveLength(2);
    expect(granted.body.usage.monthly).toBeDefined();
    expect((await call('GET', `/admin/users/${user.userId}/pass`, admin)).body.periods).toHaveLength(2);
    expect((await call('DELETE', `/admin/users/${user.userId}/pass`, admin)).body).toEqual({
      user_id: user.userId,
      revoked_periods: 2,
    });
    const after = await call('GET', `/admin/users/${user.userId}/pass`, admin);
    expect(after.body).toEqual({ user_id: user.userId, active: false, periods: [] });
    expect((await call('POST', `/admin/users/${user.userId}/pass`, admin, { months: 0 })).status).toBe(400);
  });
});

describe('keys of a user', () => {
  it('creates a key with limits, lists, disables (the key is refused at once), and deletes it', async () => {
    const user = await gw.createUser();
    const created = await call('POST', `/admin/users/${user.userId}/keys`, admin, {
      name: 'customer-app',
      limit: 20,
      limit_reset: 'monthly',
      allowed_models: ['openai/*'],
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'customer-app',
      limit: 20,
      limit_remaining: 20,
      limit_reset: 'monthly',
      allowed_models: ['openai/*'],
    });
    expect((await call('GET', '/key', created.body.key)).status).toBe(200);
    const listed = await call('GET', `/admin/users/${user.userId}/keys`, admin);
    expect(listed.body.data.map((k: any) => k.key_id)).toEqual([created.body.key_id, user.keyId]);
    const patched = await call('PATCH', `/admin/users/${user.userId}/keys/${created.body.key_id}`, admin, {
      disabled: true,
    });
    expect(patched.body.disabled).toBe(true);
    expect((await call('GET', '/key', created.body.key)).status).toBe(401);
    // Another user's key is not found under this user.
    const other = await gw.createUser();
    expect(
      (await call('PATCH', `/admin/users/${other.userId}/keys/${created.body.key_id}`, admin, { disabled: false }))
        .status,
    ).toBe(404);
    expect((await call('DELETE', `/admin/users/${user.userId}/keys/${created.body.key_id}`, admin)).body).toEqual({
      deleted: true,
      key_id: created.body.key_id,
    });
    expect((await call('DELETE', `/admin/users/${user.userId}/keys/${created.body.key_id}`, admin)).status).toBe(404);
  });
});

describe('usage report', () => {
  it('sums requests, tokens and cost from the generation records, equal to the ledger debits, as JSON and CSV', async () => {
    const user = await gw.createUser();
    await gw.grant(user.userId, 1);
    const second = await call('POST', `/admin/users/${user.userId}/keys`, admin, { name: 'second' });
    upstream.always({
      kind: 'json',
      body: {
        id: 'c',
        object: 'chat.completion',
        created: 1,
        model: 'gpt-test-2026',
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
        usage: {
          prompt_tokens: 100,
          completion_tokens: 50,
          total_tokens: 150,
          prompt_tokens_details: { cached_tokens: 20 },
        },
      },
    });
    for (const key of [user.key, user.key, second.body.key]) {
      const res = await call('POST', '/chat/completions', key, {
        model: 'openai/gpt-test',
        messages: [{ role: 'user', content: 'hi' }],
        stream: false,
        max_tokens: 100,
      });
      expect(res.status).toBe(200);
    }
    await gw.settled();
    const range = `from=${encodeURIComponent(new Date(Date.now() - 3600_000).toISOString())}&to=${encodeURIComponent(new Date(Date.now() + 3600_000).toISOString())}`;

    const byUser = await call('GET', `/admin/usage?${range}&group_by=user`, admin);
    expect(byUser.status).toBe(200);
    const mine = byUser.body.data.find((r: any) => r.group === user.userId);
    expect(mine).toMatchObject({
      requests: 3,
      prompt_tokens: 300,
      completion_tokens: 150,
      cached_tokens: 60,
      reasoning_tokens: 0,
    });
    const debits = (await listLedger(gw.db, user.userId, 100)).filter((r) => r.kind === 'debit');
    const debited = debits.reduce((sum, r) => sum - r.amount_nanos, 0n);
    expect(debited).toBeGreaterThan(0n);
    expect(mine.cost).toBeCloseTo(Number(debited) / 1e9, 12);

    const byKey = await call('GET', `/admin/usage?${range}&group_by=key`, admin);
    const keyRows = Object.fromEntries(byKey.body.data.map((r: any) => [r.group, r.requests]));
    expect(keyRows[user.keyId]).toBe(2);
    expect(keyRows[second.body.key_id]).toBe(1);
    const byModel = await call('GET', `/admin/usage?${range}&group_by=model`, admin);
    expect(byModel.body.data.find((r: any) => r.group === 'openai/gpt-test').requests).toBeGreaterThanOrEqual(3);
    const byDay = await call('GET', `/admin/usage?${range}`, admin);
    expect(byDay.body.group_by).toBe('day');
    expect(byDay.body.data[0].group).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    const csv = await call('GET', `/admin/usage?${range}&group_by=key&format=csv`, admin);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('group,requests,prompt_tokens,completion_tokens,cached_tokens,reasoning_tokens,cost');
    expect(lines).toContain(
      `${user.keyId},2,200,100,40,0,${keyRows[user.keyId] === 2 ? byKey.body.data.find((r: any) => r.group === user.keyId).cost : ''}`,
    );

    expect((await call('GET', `/admin/usage?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z`, admin)).status).toBe(
      400,
    );
    expect((await call('GET', `/admin/usage?from=2020-01-01T00:00:00Z&to=2026-01-01T00:00:00Z`, admin)).status).toBe(
      400,
    );
    expect((await call('GET', `/admin/usage?${range}&group_by=planet`, admin)).status).toBe(400);
  });
});
