import { expect, it } from 'vitest';
import {
  findActiveApiKeyByHash,
  findApiKeyForUser,
  insertApiKey,
  listApiKeysForUser,
  setApiKeyLimits,
  softDeleteApiKey,
  touchApiKeysLastUsed,
} from '../../src/repositories/api-keys.js';
import { describeEachDatabase, insertTestUser, uniqueId, insertTestApiKey } from '../helpers/databases.js';

describeEachDatabase('api keys repository', (ctx) => {
  it('finds an active key by hash with its owner email, never a deleted one', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    const key = await insertTestApiKey(db, user.id);
    expect(key).toMatchObject({ user_id: user.id, deleted_at: null, last_used_at: null, rate_limit_rpm: null });

    const found = await findActiveApiKeyByHash(db, key.key_hash);
    expect(found).toMatchObject({ id: key.id, email: user.email, key_hash: key.key_hash });
    expect(await findActiveApiKeyByHash(db, uniqueId('other'))).toBeUndefined();

    expect(await softDeleteApiKey(db, { userId: user.id, keyId: key.id, now: new Date() })).toBe(true);
    expect(await findActiveApiKeyByHash(db, key.key_hash)).toBeUndefined();
  });

  it('makes keys inference keys unless told, and keeps limits and allow-lists off management keys (migration 0010)', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    expect((await insertTestApiKey(db, user.id)).kind).toBe('inference');
    const management = await insertApiKey(db, {
      id: uniqueId('key_'),
      user_id: user.id,
      member_user_id: user.id,
      name: 'm',
      key_hash: uniqueId('h'),
      display_prefix: 'mgm-v1-x...',
      kind: 'management',
    });
    expect(management.kind).toBe('management');
    await expect(setApiKeyLimits(db, management.id, { credit_limit_nanos: 1n })).rejects.toMatchObject({
      code: '23514',
    });
    await expect(
      db
        .updateTable('api_keys')
        .set({ kind: 'admin' as never })
        .where('id', '=', management.id)
        .execute(),
    ).rejects.toMatchObject({ code: '23514' });
    // Rate-limit overrides are not spending: allowed.
    expect(await setApiKeyLimits(db, management.id, { rate_limit_rpm: 5 })).toMatchObject({ rate_limit_rpm: 5 });
  });

  it('rejects a duplicate key hash', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    const key = await insertTestApiKey(db, user.id);
    const duplicate = insertApiKey(db, { ...key, id: uniqueId('key_'), created_at: undefined });
    await expect(duplicate).rejects.toMatchObject({ code: '23505' });
  });

  it('soft-deletes only the owner’s active key, once', async () => {
    const db = ctx.db();
    const owner = await insertTestUser(db);
    const stranger = await insertTestUser(db);
    const key = await insertTestApiKey(db, owner.id);
    const at = new Date('2025-01-02T03:04:05.000Z');

    expect(await softDeleteApiKey(db, { userId: stranger.id, keyId: key.id, now: at })).toBe(false);
    expect(await findApiKeyForUser(db, { userId: owner.id, keyId: key.id })).toBeDefined();
    expect(await softDeleteApiKey(db, { userId: owner.id, keyId: uniqueId('key_'), now: at })).toBe(false);

    expect(await softDeleteApiKey(db, { userId: owner.id, keyId: key.id, now: at })).toBe(true);
    expect(await softDeleteApiKey(db, { userId: owner.id, keyId: key.id, now: new Date() })).toBe(false);
    const row = await db.selectFrom('api_keys').select('deleted_at').where('id', '=', key.id).executeTakeFirstOrThrow();
    expect(row.deleted_at).toEqual(at);
  });

  it('lists a user’s active keys newest first and finds one only for its owner', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    const other = await insertTestUser(db);
    const oldest = await insertTestApiKey(db, user.id, new Date('2025-01-01T00:00:00Z'));
    const newest = await insertTestApiKey(db, user.id, new Date('2025-03-01T00:00:00Z'));
    const deleted = await insertTestApiKey(db, user.id, new Date('2025-02-01T00:00:00Z'));
    await insertTestApiKey(db, other.id);
    await softDeleteApiKey(db, { userId: user.id, keyId: deleted.id, now: new Date() });

    expect((await listApiKeysForUser(db, user.id)).map((k) => k.id)).toEqual([newest.id, oldest.id]);
    expect(await findApiKeyForUser(db, { userId: user.id, keyId: newest.id })).toMatchObject({ id: newest.id });
    expect(await findApiKeyForUser(db, { userId: other.id, keyId: newest.id })).toBeUndefined();
    expect(await findApiKeyForUser(db, { userId: user.id, keyId: deleted.id })).toBeUndefined();
  });

  it('touches last_used_at of many keys in one call and never moves it backwards', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    const [a, b, c] = [
      await insertTestApiKey(db, user.id),
      await insertTestApiKey(db, user.id),
      await insertTestApiKey(db, user.id),
    ];
    const early = new Date('2025-05-01T10:00:00.000Z');
    const late = new Date('2025-05-01T11:00:00.000Z');

    await touchApiKeysLastUsed(db, [a.id, b.id], late);
    await touchApiKeysLastUsed(db, [a.id, c.id], early);
    await touchApiKeysLastUsed(db, [], late);

    const rows = await db
      .selectFrom('api_keys')
      .select(['id', 'last_used_at'])
      .where('id', 'in', [a.id, b.id, c.id])
      .execute();
    const byId = new Map(rows.map((r) => [r.id, r.last_used_at]));
    expect(byId.get(a.id)).toEqual(late);
    expect(byId.get(b.id)).toEqual(late);
    expect(byId.get(c.id)).toEqual(early);
  });

  it('sets, keeps and clears per-key limits', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    const key = await insertTestApiKey(db, user.id);

    const set = await setApiKeyLimits(db, key.id, { rate_limit_rpm: 60, credit_limit_nanos: 5_000_000_000n });
    expect(set).toMatchObject({ rate_limit_rpm: 60, rate_limit_tpm: null, credit_limit_nanos: 5_000_000_000n });

    const partial = await setApiKeyLimits(db, key.id, { rate_limit_tpm: 10_000, rate_limit_rpm: undefined });
    expect(partial).toMatchObject({ rate_limit_rpm: 60, rate_limit_tpm: 10_000 });

    const cleared = await setApiKeyLimits(db, key.id, { rate_limit_rpm: null, free_requests_per_day: 50 });
    expect(cleared).toMatchObject({ rate_limit_rpm: null, rate_limit_tpm: 10_000, free_requests_per_day: 50 });
    expect(await setApiKeyLimits(db, key.id, {})).toMatchObject({ free_requests_per_day: 50 });

    await softDeleteApiKey(db, { userId: user.id, keyId: key.id, now: new Date() });
    expect(await setApiKeyLimits(db, key.id, { rate_limit_rpm: 1 })).toBeUndefined();
  });
});
