import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** `users`: one row per account holder; `email` is stored lower-cased (a CHECK enforces it). */
export interface UsersTable {
  id: string;
  email: string;
  created_at: Generated<Date>;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
