import { aliasesColumn } from './organization-aliases.js';
import type { DbOrTrx } from '../db/database.js';
import type { AccountTokenRow, NewAccountToken } from '../db/tables/account-tokens.js';
import type { OrganizationColumns } from './api-keys.js';

/** An active account token together with its owner's email, as authentication needs it. */
export type AccountTokenWithOwner = AccountTokenRow & { email: string } & OrganizationColumns;

export async function insertAccountToken(db: DbOrTrx, row: NewAccountToken): Promise<AccountTokenRow> {
  return db.insertInto('account_tokens').values(row).returningAll().executeTakeFirstOrThrow();
}

/** Lookup for authentication; revoked tokens never match. */
export async function findActiveAccountTokenByHash(
  db: DbOrTrx,
  tokenHash: string,
): Promise<AccountTokenWithOwner | undefined> {
  return (
    db
      .selectFrom('account_tokens')
      .innerJoin('users', 'users.id', 'account_tokens.user_id')
      // The user's personal organization (whose id is the user's) and the owner's membership of it: their budgets.
      .innerJoin('organizations', 'organizations.id', 'account_tokens.user_id')
      .innerJoin('memberships', (join) =>
        join
          .onRef('memberships.organization_id', '=', 'account_tokens.user_id')
          .onRef('memberships.user_id', '=', 'account_tokens.user_id'),
      )
      .selectAll('account_tokens')
      .select('users.email')
      .select([
        'organizations.budget_limit_nanos as org_budget_limit_nanos',
        'organizations.budget_reset as org_budget_reset',
        'organizations.guardrails as org_guardrails',
        'memberships.budget_limit_nanos as member_budget_limit_nanos',
        'memberships.budget_reset as member_budget_reset',
      ])
      .select(aliasesColumn('account_tokens.user_id').as('org_aliases'))
      .where('account_tokens.token_hash', '=', tokenHash)
      .where('account_tokens.revoked_at', 'is', null)
      .executeTakeFirst()
  );
}

/** Revokes the owner's active token. `false` when it does not exist, is not theirs, or is already revoked. */
export async function revokeAccountToken(
  db: DbOrTrx,
  input: { userId: string; tokenId: string; now: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('account_tokens')
    .set({ revoked_at: input.now })
    .where('id', '=', input.tokenId)
    .where('user_id', '=', input.userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Batched last-used update, same rules as for API keys (never moves backwards). */
export async function touchAccountTokensLastUsed(db: DbOrTrx, ids: string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('account_tokens')
    .set({ last_used_at: at })
    .where('id', 'in', ids)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
    .execute();
}
