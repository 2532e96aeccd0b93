import { aliasesColumn } from './organization-aliases.js';
import type { Guardrail } from '../core/guardrail.js';
import type { DbOrTrx } from '../db/database.js';
import type { ApiKeyRow, KeyLimitReset, NewApiKey } from '../db/tables/api-keys.js';
import type { MemberRole } from '../db/tables/memberships.js';

/** An active key together with its member's email and role in the key's organization, as authentication needs it. */
export type ApiKeyWithOwner = ApiKeyRow & { email: string; role: MemberRole } & OrganizationColumns;

/** What a credential's principal carries of its organization and membership: budgets (migration 0016), aliases. */
export interface OrganizationColumns {
  /** The organization's aliases (migration 0020), name to model id; null without any. */
  org_aliases: Record<string, string> | null;
  /** The organization's guardrails (migration 0022); null without any. */
  org_guardrails: Guardrail[] | null;
  org_budget_limit_nanos: bigint | null;
  org_budget_reset: KeyLimitReset | null;
  member_budget_limit_nanos: bigint | null;
  member_budget_reset: KeyLimitReset | null;
}

/** Per-key overrides; a field left out stays as it is, `null` resets it to the gateway default. */
export type ApiKeyLimits = Partial<
  Pick<ApiKeyRow, 'rate_limit_rpm' | 'rate_limit_tpm' | 'free_requests_per_day' | 'credit_limit_nanos'>
>;

export async function insertApiKey(db: DbOrTrx, row: NewApiKey): Promise<ApiKeyRow> {
  return db.insertInto('api_keys').values(row).returningAll().executeTakeFirstOrThrow();
}

/**
 * Lookup for authentication. Deleted keys never match, so deletion applies on the next request everywhere; nor does
 * a key whose member no longer belongs to its organization (a key never acts where its member is not a member).
 */
export async function findActiveApiKeyByHash(db: DbOrTrx, keyHash: string): Promise<ApiKeyWithOwner | undefined> {
  return db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.member_user_id')
    .innerJoin('memberships', (join) =>
      join
        .onRef('memberships.organization_id', '=', 'api_keys.user_id')
        .onRef('memberships.user_id', '=', 'api_keys.member_user_id'),
    )
    .innerJoin('organizations', 'organizations.id', 'api_keys.user_id')
    .selectAll('api_keys')
    .select(['users.email', 'memberships.role'])
    .select([
      'organizations.budget_limit_nanos as org_budget_limit_nanos',
      'organizations.budget_reset as org_budget_reset',
      'organizations.guardrails as org_guardrails',
      'memberships.budget_limit_nanos as member_budget_limit_nanos',
      'memberships.budget_reset as member_budget_reset',
    ])
    .select(aliasesColumn('api_keys.user_id').as('org_aliases'))
    .where('api_keys.key_hash', '=', keyHash)
    .where('api_keys.deleted_at', 'is', null)
    .executeTakeFirst();
}

/**
 * Locks the organization's row until the transaction ends, so that key creations of one organization run one after
 * another: each counts the keys the previous ones committed (the cap on keys per account cannot be raced past).
 */
export async function lockAccountForKeys(trx: DbOrTrx, organizationId: string): Promise<void> {
  await trx.selectFrom('organizations').select('id').where('id', '=', organizationId).forUpdate().execute();
}

/** How many keys of the user are active (not deleted), management keys included. */
export async function countActiveApiKeys(db: DbOrTrx, userId: string): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<string | number | bigint>().as('count'))
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** The user's active keys, newest first. */
export async function listApiKeysForUser(db: DbOrTrx, userId: string): Promise<ApiKeyRow[]> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** One active key of this user; another user's key or a deleted one is `undefined`. */
/**
 * With `lock`, the row is held until the transaction ends as its update would hold it (FOR NO KEY UPDATE, which
 * leaves settlements' foreign-key checks on it free to go on).
 */
export async function findApiKeyForUser(
  db: DbOrTrx,
  { userId, keyId, lock = false }: { userId: string; keyId: string; lock?: boolean },
): Promise<ApiKeyRow | undefined> {
  const query = db
    .selectFrom('api_keys')
    .selectAll()
    .where('id', '=', keyId)
    .where('user_id', '=', userId)
    .where('deleted_at', 'is', null);
  return (lock ? query.forNoKeyUpdate() : query).executeTakeFirst();
}

/** Soft-deletes the owner's active key. `false` when it does not exist, is not theirs, or is already deleted. */
export async function softDeleteApiKey(
  db: DbOrTrx,
  input: { userId: string; keyId: string; now: Date },
): Promise<boolean> {
  return (await softDeleteApiKeyReturningHash(db, input)) !== undefined;
}

/** Like softDeleteApiKey, returning the deleted key's hash (to drop it from credential caches), else `undefined`. */
export async function softDeleteApiKeyReturningHash(
  db: DbOrTrx,
  input: { userId: string; keyId: string; now: Date },
): Promise<string | undefined> {
  const row = await db
    .updateTable('api_keys')
    .set({ deleted_at: input.now })
    .where('id', '=', input.keyId)
    .where('user_id', '=', input.userId)
    .where('deleted_at', 'is', null)
    .returning('key_hash')
    .executeTakeFirst();
  return row?.key_hash;
}

/**
 * Records use of many keys in one statement (callers batch in memory). Never moves a timestamp
 * backwards, so a late flush from a slower instance cannot undo a newer one.
 */
export async function touchApiKeysLastUsed(db: DbOrTrx, ids: string[], at: Date): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('api_keys')
    .set({ last_used_at: at })
    .where('id', 'in', ids)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
    .execute();
}

/** Updates per-key limits of an active key; returns the updated row, or `undefined` if there is none. */
export async function setApiKeyLimits(
  db: DbOrTrx,
  keyId: string,
  limits: ApiKeyLimits,
): Promise<ApiKeyRow | undefined> {
  const changes = Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined)) as ApiKeyLimits;
  if (Object.keys(changes).length === 0) {
    return db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', keyId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
  }
  return db
    .updateTable('api_keys')
    .set(changes)
    .where('id', '=', keyId)
    .where('deleted_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}
