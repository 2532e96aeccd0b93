import type { Generated, Insertable, Selectable } from 'kysely';

/** `admin_keys`: credentials of the operator API (migration 0007); only the SHA-256 hex of the secret is stored. */
export interface AdminKeysTable {
  id: string;
  name: string;
  key_hash: string;
  display_prefix: string;
  created_at: Generated<Date>;
  last_used_at: Date | null;
  deleted_at: Date | null;
}

export type AdminKeyRow = Selectable<AdminKeysTable>;
export type NewAdminKey = Insertable<AdminKeysTable>;
