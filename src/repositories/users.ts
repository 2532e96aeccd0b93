import type { DbOrTrx } from '../db/database.js';
import type { UserRow } from '../db/tables/users.js';

/** Emails are compared case-insensitively by storing them lower-cased (the table CHECKs this). */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function createUser(db: DbOrTrx, user: { id: string; email: string }): Promise<UserRow> {
  return db
    .insertInto('users')
    .values({ id: user.id, email: normalizeEmail(user.email) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function findUserByEmail(db: DbOrTrx, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', normalizeEmail(email)).executeTakeFirst();
}

export async function findUserById(db: DbOrTrx, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Race-safe get-or-create: concurrent callers for the same email all end up with the one row.
 * `newId` is only used if this call's insert wins.
 */
export async function findOrCreateUserByEmail(db: DbOrTrx, email: string, newId: () => string): Promise<UserRow> {
  const normalized = normalizeEmail(email);
  const inserted = await db
    .insertInto('users')
    .values({ id: newId(), email: normalized })
    .onConflict((oc) => oc.column('email').doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted !== undefined) return inserted;
  return db.selectFrom('users').selectAll().where('email', '=', normalized).executeTakeFirstOrThrow();
}

export async function countUsers(db: DbOrTrx): Promise<number> {
  const { count } = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<bigint>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(count);
}
