import { expect, it } from 'vitest';
import {
  findActiveAccountTokenByHash,
  insertAccountToken,
  revokeAccountToken,
  touchAccountTokensLastUsed,
} from '../../src/repositories/account-tokens.js';
import { describeEachDatabase, insertTestUser, uniqueId } from '../helpers/databases.js';

describeEachDatabase('account tokens repository', (ctx) => {
  it('finds an active token by hash with its owner email', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    const token = await insertAccountToken(db, {
      id: uniqueId('tok_'),
      user_id: user.id,
      token_hash: uniqueId('hash'),
      display_prefix: 'mg-acct-v1-ab12',
    });
    expect(token.revoked_at).toBeNull();
    expect(await findActiveAccountTokenByHash(db, token.token_hash)).toMatchObject({ id: token.id, email: user.email });
    expect(await findActiveAccountTokenByHash(db, uniqueId('hash'))).toBeUndefined();
  });

  it('revokes only the owner’s token, and a revoked token no longer matches', async () => {
    const db = ctx.db();
    const owner = await insertTestUser(db);
    const stranger = await insertTestUser(db);
    const token = await insertAccountToken(db, {
      id: uniqueId('tok_'),
      user_id: owner.id,
      token_hash: uniqueId('hash'),
      display_prefix: 'p',
    });
    const now = new Date('2025-06-01T00:00:00.000Z');
    expect(await revokeAccountToken(db, { userId: stranger.id, tokenId: token.id, now })).toBe(false);
    expect(await findActiveAccountTokenByHash(db, token.token_hash)).toBeDefined();
    expect(await revokeAccountToken(db, { userId: owner.id, tokenId: token.id, now })).toBe(true);
    expect(await revokeAccountToken(db, { userId: owner.id, tokenId: token.id, now })).toBe(false);
    expect(await findActiveAccountTokenByHash(db, token.token_hash)).toBeUndefined();
  });

  it('touches last_used_at without moving it backwards', async () => {
    const db = ctx.db();
    const user = await insertTestUser(db);
    const token = await insertAccountToken(db, {
      id: uniqueId('tok_'),
      user_id: user.id,
      token_hash: uniqueId('hash'),
      display_prefix: 'p',
    });
    const late = new Date('2025-06-02T00:00:00.000Z');
    await touchAccountTokensLastUsed(db, [token.id], late);
    await touchAccountTokensLastUsed(db, [token.id], new Date('2025-06-01T00:00:00.000Z'));
    expect((await findActiveAccountTokenByHash(db, token.token_hash))?.last_used_at).toEqual(late);
  });
});
