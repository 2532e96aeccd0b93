// The cap on an account's active keys (MODELGATE_MAX_KEYS_PER_ACCOUNT), on both databases: deleted keys do not
// count, management keys do, another account is not touched, and a concurrent burst of creations cannot pass it.
import { expect, it } from 'vitest';
import { createKey, deleteKey } from '../../src/services/api-keys.js';
import { CONSOLE_ACTOR } from '../../src/services/audit-log.js';
import { countActiveApiKeys } from '../../src/repositories/api-keys.js';
import { GatewayError } from '../../src/core/gateway-error.js';
import { describeEachDatabase, insertTestUser } from '../helpers/databases.js';

describeEachDatabase('keys per account', (ctx) => {
  const create = (userId: string, maxKeys: number, kind: 'inference' | 'management' = 'inference') =>
    createKey(ctx.db(), {
      organizationId: userId,
      memberUserId: userId,
      settings: { name: 'k' },
      now: new Date(),
      kind,
      maxKeys,
      actor: CONSOLE_ACTOR,
    });

  it('refuses the key past the cap with 409 too_many_keys, counting only active keys, management keys included', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    const first = await create(user.id, 3);
    await create(user.id, 3, 'management');
    await create(user.id, 3);
    const refused = await create(user.id, 3).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(GatewayError);
    expect(refused).toMatchObject({ status: 409, metadata: { reason: 'too_many_keys', max_keys: 3 } });
    expect((refused as Error).message).toContain('an account may hold 3 active keys');
    // A deleted key frees its place.
    expect(
      await deleteKey(db, undefined, { userId: user.id, keyId: first.row.id, now: new Date(), actor: CONSOLE_ACTOR }),
    ).toBe(true);
    await create(user.id, 3);
    expect(await countActiveApiKeys(db, user.id)).toBe(3);
    // Another account has its own count.
    const other = await insertTestUser(db);
    await create(other.id, 3);
  });

  it('lets exactly the cap through a concurrent burst of creations', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    await create(user.id, 5);
    const results = await Promise.allSettled(Array.from({ length: 24 }, () => create(user.id, 5)));
    const created = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(created).toHaveLength(4);
    expect(refused).toHaveLength(20);
    for (const r of refused) expect(r.reason).toMatchObject({ status: 409, metadata: { reason: 'too_many_keys' } });
    expect(await countActiveApiKeys(db, user.id)).toBe(5);
  });
});
