import { expect, it } from 'vitest';
import {
  countUsers,
  createUser,
  findOrCreateUserByEmail,
  findUserByEmail,
  findUserById,
} from '../../src/repositories/users.js';
import { describeEachDatabase, uniqueId } from '../helpers/databases.js';

describeEachDatabase('users repository', (ctx) => {
  it('stores emails lower-cased and finds them case-insensitively', async () => {
    const db = ctx.db();
    const id = uniqueId('usr_');
    const local = uniqueId('Ada.');
    const user = await createUser(db, { id, email: `  ${local}@Example.COM ` });
    expect(user).toMatchObject({ id, email: `${local.toLowerCase()}@example.com` });
    expect(user.created_at).toBeInstanceOf(Date);
    expect((await findUserByEmail(db, `${local.toUpperCase()}@EXAMPLE.com`))?.id).toBe(id);
    expect((await findUserById(db, id))?.email).toBe(user.email);
    expect(await findUserById(db, uniqueId('usr_'))).toBeUndefined();
    expect(await findUserByEmail(db, `${uniqueId('nobody')}@example.com`)).toBeUndefined();
  });

  it('rejects a second user with the same email in any case', async () => {
    const db = ctx.db();
    const email = `${uniqueId('dup')}@example.com`;
    await createUser(db, { id: uniqueId('usr_'), email });
    await expect(createUser(db, { id: uniqueId('usr_'), email: email.toUpperCase() })).rejects.toMatchObject({
      code: '23505',
    });
  });

  it('enforces lower-case emails in the table itself', async () => {
    const db = ctx.db();
    const insert = db.insertInto('users').values({ id: uniqueId('usr_'), email: `${uniqueId('X')}@Example.com` });
    await expect(insert.execute()).rejects.toMatchObject({ code: '23514' });
  });

  it('find-or-create returns one user to concurrent callers', async () => {
    const db = ctx.db();
    const email = `${uniqueId('race')}@example.com`;
    const users = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        findOrCreateUserByEmail(db, i % 2 ? email.toUpperCase() : email, () => uniqueId('usr_')),
      ),
    );
    expect(new Set(users.map((u) => u.id)).size).toBe(1);
    expect(users[0].email).toBe(email);
    const again = await findOrCreateUserByEmail(db, email, () => uniqueId('usr_'));
    expect(again.id).toBe(users[0].id);
  });

  it('counts users', async () => {
    const db = ctx.db();
    const before = await countUsers(db);
    await createUser(db, { id: uniqueId('usr_'), email: `${uniqueId('c')}@example.com` });
    expect(await countUsers(db)).toBe(before + 1);
  });
});
