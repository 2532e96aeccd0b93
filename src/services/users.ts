// Users of the gateway, as the operator manages them (CLI `users`, API /admin/users).
import { CONSOLE_ACTOR, recordAudit, type AuditActor } from './audit-log.js';
import { inTransaction } from '../db/in-transaction.js';
import { sql } from 'kysely';
import type { Db, DbOrTrx } from '../db/database.js';
import type { UserRow } from '../db/tables/users.js';
import { newId } from '../auth/secrets.js';
import { GatewayError } from '../core/gateway-error.js';
import { findUserByEmail, findUserById, normalizeEmail } from '../repositories/users.js';

/** A user as the operator API and CLI show it. */
export type User = UserRow;

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export class UserExistsError extends GatewayError {
  constructor(email: string) {
    super(409, `A user with email ${email} already exists`, { reason: 'user_exists', email });
  }
}

/** Creates a user; a taken email is UserExistsError (409), a malformed one 400. */
export async function createUserAccount(
  db: Db,
  input: { email: string /** Who creates it (the audit log); the console when not said. */; by?: AuditActor },
): Promise<User> {
  const email = normalizeEmail(input.email);
  if (!EMAIL.test(email) || email.includes('\u0000'))
    throw new GatewayError(400, `Invalid request: email must be an e-mail address`, { field: 'email' });
  const row = await inTransaction(db, async (trx) => {
    const created = await trx
      .insertInto('users')
      .values({ id: newId('usr_'), email })
      .onConflict((oc) => oc.column('email').doNothing())
      .returningAll()
      .executeTakeFirst();
    // The user's personal organization (made by the insert's trigger) has the user's id.
    if (created)
      await recordAudit(trx, {
        actor: input.by ?? CONSOLE_ACTOR,
        organizationId: created.id,
        action: 'user.created',
        target: { type: 'user', id: created.id },
        after: created,
      });
    return created;
  });
  if (row === undefined) throw new UserExistsError(email);
  return row;
}

/** By id or by email; `undefined` when there is none. */
export async function findUser(db: DbOrTrx, by: { id?: string; email?: string }): Promise<User | undefined> {
  if (by.id !== undefined) return by.id.includes('\u0000') ? undefined : findUserById(db, by.id);
  if (by.email !== undefined) return by.email.includes('\u0000') ? undefined : findUserByEmail(db, by.email);
  return undefined;
}

/** The user or a 404 naming the id (the operator API's path parameter). */
export async function requireUser(db: DbOrTrx, userId: string): Promise<User> {
  const user = await findUser(db, { id: userId });
  if (!user) throw new GatewayError(404, `User ${userId} not found`, { user_id: userId });
  return user;
}

/**
 * One page of users, newest first; `cursor` is the last user of the previous page (opaque to clients). The
 * position is compared in SQL against that user's own row, so timestamps keep their full (microsecond) precision.
 */
export async function listUsers(
  db: DbOrTrx,
  page: { limit: number; cursor?: string },
): Promise<{ rows: User[]; nextCursor: string | null }> {
  let query = db
    .selectFrom('users')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1);
  if (page.cursor !== undefined) {
    const after = await findUser(db, { id: decodeCursor(page.cursor) });
    if (!after) throw invalidCursor();
    query = query.where(
      sql<boolean>`(created_at, id) < (select u.created_at, u.id from users u where u.id = ${after.id})`,
    );
  }
  const rows = await query.execute();
  const more = rows.length > page.limit;
  const pageRows = more ? rows.slice(0, page.limit) : rows;
  const last = pageRows[pageRows.length - 1];
  return { rows: pageRows, nextCursor: more && last ? Buffer.from(last.id).toString('base64url') : null };
}

function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (id === '' || id.length > 200 || id.includes('\u0000')) throw invalidCursor();
  return id;
}

function invalidCursor(): GatewayError {
  return new GatewayError(400, 'Invalid request: cursor is not one this API returned', { field: 'cursor' });
}
