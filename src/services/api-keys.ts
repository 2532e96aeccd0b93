// API key operations, shared by the user routes (/api-keys, /key), the operator API (/admin/users/{id}/keys) and
// the CLI: one implementation each.
import { sql } from 'kysely';
import { nanosToUsd } from '../core/money.js';
import { findMembership } from '../repositories/organizations.js';
import type { Db, DbOrTrx } from '../db/database.js';
import type { ApiKeyKind, ApiKeyRow, ApiKeyUpdate } from '../db/tables/api-keys.js';
import { issueApiKey } from '../auth/issue-credentials.js';
import {
  countActiveApiKeys,
  findApiKeyForUser,
  listApiKeysForUser,
  lockAccountForKeys,
  softDeleteApiKeyReturningHash,
} from '../repositories/api-keys.js';
import { GatewayError } from '../core/gateway-error.js';
import { seedKeySpend, spentInPeriods } from '../repositories/key-budget-spend.js';
import { keyBudgetId } from '../billing/key-budget.js';
import { sumKeyUsage, type KeyUsage } from '../repositories/key-usage.js';
import { periodStart } from '../billing/key-periods.js';
import { inTransaction } from '../db/in-transaction.js';
import { checkSettingsFitKind, type KeySettings } from './key-settings.js';
import type { AuditActor } from './audit-log.js';
import { keyCreated, keyRevoked, keyUpdated } from './key-changes.js';

/** A key row with its usage and what is left of its limit in the current period (nano-dollars). */
export interface KeyView {
  row: ApiKeyRow;
  usage: KeyUsage;
  /** null when the key has no limit. */
  limitRemainingNanos: bigint | null;
}

/** Something that forgets a credential hash at once in this process (the CredentialCache). */
export interface CredentialInvalidator {
  invalidate(hash: string): void;
}

function changesOf(settings: KeySettings): ApiKeyUpdate {
  const changes: ApiKeyUpdate = {};
  if (settings.name !== undefined) changes.name = settings.name;
  if (settings.limitNanos !== undefined) changes.credit_limit_nanos = settings.limitNanos;
  if (settings.limitReset !== undefined) changes.limit_reset = settings.limitReset;
  if (settings.expiresAt !== undefined) changes.expires_at = settings.expiresAt;
  if (settings.disabled !== undefined) changes.disabled = settings.disabled;
  if (settings.guardrails !== undefined) {
    changes.guardrails = (
      settings.guardrails.length === 0 ? null : sql`${JSON.stringify(settings.guardrails)}::jsonb`
    ) as never;
  }
  if (settings.allowedModels !== undefined) {
    // jsonb written as text so both dialects (pg, PGlite) send the same parameter.
    changes.allowed_models = (
      settings.allowedModels === null ? null : sql`${JSON.stringify(settings.allowedModels)}::jsonb`
    ) as never;
  }
  return changes;
}

/** A limit set on a key counts what the key already spent in the current period. */
async function seedIfLimited(db: DbOrTrx, row: ApiKeyRow, now: Date): Promise<void> {
  if (row.credit_limit_nanos === null) return;
  await seedKeySpend(db, {
    keyId: row.id,
    budgetId: keyBudgetId(row.user_id, row.id),
    periodStart: periodStart(row.limit_reset, now),
  });
}

export interface NewKeyInput {
  /** The organization the key spends from. */
  organizationId: string;
  /** The member whose key it is (a member of organizationId: the caller checks, auth/key-scopes.ts). */
  memberUserId: string;
  settings: KeySettings;
  now: Date;
  kind?: ApiKeyKind;
  maxKeys: number;
  /** The credential that creates it (audit log). */
  actor: AuditActor;
}

/**
 * Who may create which kind is the caller's to check (src/auth/key-scopes.ts); `kind` defaults to inference. An
 * account holding `maxKeys` active keys (MODELGATE_MAX_KEYS_PER_ACCOUNT) gets 409: nothing that is counted per key
 * may multiply with keys, and every key is a row to list, cache and check.
 */
export async function createKey(db: Db, input: NewKeyInput): Promise<{ row: ApiKeyRow; secret: string }> {
  const kind = input.kind ?? 'inference';
  checkSettingsFitKind(kind, input.settings);
  return inTransaction(db, async (trx) => {
    const { settings, organizationId } = input;
    await lockAccountForKeys(trx, organizationId);
    if ((await countActiveApiKeys(trx, organizationId)) >= input.maxKeys) throw new TooManyKeysError(input.maxKeys);
    await checkWithinMemberBudget(trx, {
      organizationId,
      memberUserId: input.memberUserId,
      limitNanos: settings.limitNanos,
    });
    const issued = await issueApiKey(trx, {
      organizationId,
      memberUserId: input.memberUserId,
      name: settings.name ?? 'API key',
      kind,
    });
    const changes = changesOf({ ...settings, name: undefined });
    if (Object.keys(changes).length === 0) {
      await keyCreated(trx, input.actor, { row: issued.row, now: input.now });
      return issued;
    }
    const row = await trx
      .updateTable('api_keys')
      .set(changes)
      .where('id', '=', issued.row.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await seedIfLimited(trx, row, input.now);
    await keyCreated(trx, input.actor, { row, now: input.now });
    return { row, secret: issued.secret };
  });
}

/** 409: the account holds as many active keys as it may (the CLI tells it apart to name the setting). */
export class TooManyKeysError extends GatewayError {
  constructor(maxKeys: number) {
    super(
      409,
      `Too many API keys: an account may hold ${maxKeys} active keys (management keys included); delete one before creating another`,
      { reason: 'too_many_keys', max_keys: maxKeys },
    );
  }
}

/**
 * Changes an active key of this user; `undefined` when there is none. The row's change notifies every
 * instance (migration 0003's trigger), and `credentials` forgets it in this one, so a disabled key is refused on
 * the next request everywhere.
 */
export async function updateKey(
  db: Db,
  credentials: CredentialInvalidator | undefined,
  input: { userId: string; keyId: string; settings: KeySettings; now: Date; actor: AuditActor },
): Promise<ApiKeyRow | undefined> {
  const changes = changesOf(input.settings);
  if (Object.keys(changes).length === 0) return findApiKeyForUser(db, { userId: input.userId, keyId: input.keyId });
  const row = await inTransaction(db, async (trx) => {
    // Locked: the audit entry's "before" is the row this change replaced.
    const current = await findApiKeyForUser(trx, { userId: input.userId, keyId: input.keyId, lock: true });
    if (!current) return undefined;
    if (setsSpending(input.settings)) {
      checkSettingsFitKind(current.kind, input.settings);
      await checkWithinMemberBudget(trx, {
        organizationId: current.user_id,
        memberUserId: current.member_user_id,
        limitNanos: input.settings.limitNanos,
      });
    }
    const updated = await trx
      .updateTable('api_keys')
      .set(changes)
      .where('id', '=', input.keyId)
      .where('user_id', '=', input.userId)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst();
    if (updated) {
      await seedIfLimited(trx, updated, input.now);
      await keyUpdated(trx, input.actor, { before: current, after: updated, now: input.now });
    }
    return updated;
  });
  if (row) credentials?.invalidate(row.key_hash);
  return row;
}

/**
 * A key's limit never goes beyond its member's budget: 400 when it would (the member's budget applies to the key's
 * requests anyway, so a wider key limit could only mislead). A key without a limit stays bound by the budget.
 */
async function checkWithinMemberBudget(
  db: DbOrTrx,
  {
    organizationId,
    memberUserId,
    limitNanos,
  }: { organizationId: string; memberUserId: string; limitNanos: bigint | null | undefined },
): Promise<void> {
  if (limitNanos == null) return;
  const membership = await findMembership(db, organizationId, memberUserId);
  const budget = membership?.budget_limit_nanos ?? null;
  if (budget === null || limitNanos <= budget) return;
  throw new GatewayError(
    400,
    `Invalid request: limit ${nanosToUsd(limitNanos)} USD is above the member's budget of ${nanosToUsd(budget)} USD`,
    { field: 'limit', reason: 'limit_above_member_budget', member_budget: nanosToUsd(budget) },
  );
}

/** Whether the settings give the key a limit, reset period or allow-list (none of which a management key has). */
function setsSpending(settings: KeySettings): boolean {
  return settings.limitNanos != null || settings.limitReset != null || settings.allowedModels != null;
}

/** One active key of this user; another user's key, a deleted one or an impossible id is `undefined`. */
export async function findKey(db: DbOrTrx, userId: string, keyId: string): Promise<ApiKeyRow | undefined> {
  if (keyId.includes('\u0000')) return undefined;
  return findApiKeyForUser(db, { userId, keyId });
}

/** Soft-deletes an active key of this user; false when there is none. */
export async function deleteKey(
  db: Db,
  credentials: CredentialInvalidator | undefined,
  input: { userId: string; keyId: string; now: Date; actor: AuditActor },
): Promise<boolean> {
  // No id holds a NUL character (PostgreSQL text cannot even be asked for one): such a key does not exist.
  if (input.keyId.includes('\u0000')) return false;
  const hash = await inTransaction(db, async (trx) => {
    const before = await findApiKeyForUser(trx, { userId: input.userId, keyId: input.keyId, lock: true });
    if (!before) return undefined;
    const deleted = await softDeleteApiKeyReturningHash(trx, input);
    if (deleted !== undefined) await keyRevoked(trx, input.actor, { before, now: input.now, reason: 'deleted' });
    return deleted;
  });
  if (hash === undefined) return false;
  credentials?.invalidate(hash);
  return true;
}

/** Usage and remaining limit of these keys (of any users), in one query each. */
export async function describeKeys(db: DbOrTrx, rows: readonly ApiKeyRow[], now: Date): Promise<KeyView[]> {
  const limited = rows.filter((r) => r.credit_limit_nanos !== null);
  const [usage, spent] = await Promise.all([
    sumKeyUsage(
      db,
      rows.map((r) => r.id),
      now,
    ),
    spentInPeriods(
      db,
      limited.map((r) => ({
        keyId: r.id,
        budgetId: keyBudgetId(r.user_id, r.id),
        periodStart: periodStart(r.limit_reset, now),
      })),
    ),
  ]);
  return rows.map((row) => {
    const limit = row.credit_limit_nanos;
    const left = limit === null ? null : limit - (spent.get(row.id) ?? 0n);
    return {
      row,
      usage: usage.get(row.id) ?? { totalNanos: 0n, dailyNanos: 0n, weeklyNanos: 0n, monthlyNanos: 0n },
      limitRemainingNanos: left === null ? null : left > 0n ? left : 0n,
    };
  });
}

export async function listKeys(db: DbOrTrx, userId: string, now: Date): Promise<KeyView[]> {
  return describeKeys(db, await listApiKeysForUser(db, userId), now);
}

export async function describeKey(db: DbOrTrx, userId: string, keyId: string, now: Date): Promise<KeyView | undefined> {
  if (keyId.includes('\u0000')) return undefined;
  const row = await findApiKeyForUser(db, { userId, keyId });
  return row ? (await describeKeys(db, [row], now))[0] : undefined;
}
