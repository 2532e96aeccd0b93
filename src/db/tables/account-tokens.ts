import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** `account_tokens`: bearer tokens for account-management calls; hashed like API keys. */
export interface AccountTokensTable {
  id: string;
  user_id: string;
  token_hash: string;
  display_prefix: string;
  created_at: Generated<Date>;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export type AccountTokenRow = Selectable<AccountTokensTable>;
export type NewAccountToken = Insertable<AccountTokensTable>;
export type AccountTokenUpdate = Updateable<AccountTokensTable>;
