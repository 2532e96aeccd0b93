import type { DbOrTrx } from '../db/database.js';
import type { MemberRole, MembershipRow } from '../db/tables/memberships.js';
import type { OrganizationRow } from '../db/tables/organizations.js';
import type { ApiKeyRow } from '../db/tables/api-keys.js';
import type { OrganizationColumns } from './api-keys.js';
import { aliasesColumn } from './organization-aliases.js';

/** An organization as one of its members sees it: with that member's role. */
export type MemberOrganization = OrganizationRow & { role: MemberRole };

/** A member of an organization with the user's email. */
export type MemberWithEmail = MembershipRow & { email: string };

export async function insertOrganization(
  db: DbOrTrx,
  row: { id: string; name: string; personal?: boolean },
): Promise<OrganizationRow> {
  return db.insertInto('organizations').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function findOrganization(db: DbOrTrx, id: string): Promise<OrganizationRow | undefined> {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Every organization `userId` is a member of, personal first, then oldest first. */
export async function listOrganizationsOfUser(db: DbOrTrx, userId: string): Promise<MemberOrganization[]> {
  return db
    .selectFrom('organizations')
    .innerJoin('memberships', 'memberships.organization_id', 'organizations.id')
    .selectAll('organizations')
    .select('memberships.role')
    .where('memberships.user_id', '=', userId)
    .orderBy('organizations.personal', 'desc')
    .orderBy('organizations.created_at')
    .orderBy('organizations.id')
    .execute();
}

export async function findMembership(
  db: DbOrTrx,
  organizationId: string,
  userId: string,
): Promise<MembershipRow | undefined> {
  return db
    .selectFrom('memberships')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** A user's membership in an organization with what a principal acting there carries: role, budgets, aliases. */
export type MembershipContext = { role: MemberRole } & OrganizationColumns;

/** One query: the membership of `userId` in `organizationId`, as a credential's own query reads its organization. */
export async function findMembershipContext(
  db: DbOrTrx,
  member: { organizationId: string; userId: string },
): Promise<MembershipContext | undefined> {
  return db
    .selectFrom('memberships')
    .innerJoin('organizations', 'organizations.id', 'memberships.organization_id')
    .select('memberships.role')
    .select([
      'organizations.budget_limit_nanos as org_budget_limit_nanos',
      'organizations.budget_reset as org_budget_reset',
      'organizations.guardrails as org_guardrails',
      'memberships.budget_limit_nanos as member_budget_limit_nanos',
      'memberships.budget_reset as member_budget_reset',
    ])
    .select(aliasesColumn('memberships.organization_id').as('org_aliases'))
    .where('memberships.organization_id', '=', member.organizationId)
    .where('memberships.user_id', '=', member.userId)
    .executeTakeFirst();
}

/** The organization's members, owners first, then by when they joined. */
export async function listMembers(db: DbOrTrx, organizationId: string): Promise<MemberWithEmail[]> {
  return db
    .selectFrom('memberships')
    .innerJoin('users', 'users.id', 'memberships.user_id')
    .selectAll('memberships')
    .select('users.email')
    .where('memberships.organization_id', '=', organizationId)
    .orderBy((eb) => eb.case().when('memberships.role', '=', 'owner').then(0).else(1).end())
    .orderBy('memberships.created_at')
    .orderBy('memberships.user_id')
    .execute();
}

/** Adds the member with `role`, or changes the role of a member already there. */
export async function putMembership(
  db: DbOrTrx,
  row: { organizationId: string; userId: string; role: MemberRole },
): Promise<MembershipRow> {
  return db
    .insertInto('memberships')
    .values({ organization_id: row.organizationId, user_id: row.userId, role: row.role })
    .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doUpdateSet({ role: row.role }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** `false` when the user was not a member. */
export async function deleteMembership(db: DbOrTrx, organizationId: string, userId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('memberships')
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * Locks the organization's memberships until the transaction ends (through its row), so two changes of one
 * organization's members run one after another and the last owner cannot be removed by two racing requests.
 */
export async function lockOrganization(trx: DbOrTrx, organizationId: string): Promise<OrganizationRow | undefined> {
  return trx.selectFrom('organizations').selectAll().where('id', '=', organizationId).forUpdate().executeTakeFirst();
}

export async function countOwners(db: DbOrTrx, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('memberships')
    .select((eb) => eb.fn.countAll<string | number | bigint>().as('count'))
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Revokes the member's keys of the organization; returns them as they were (their hashes drop them from credential
 * caches).
 */
export async function revokeMemberKeys(
  db: DbOrTrx,
  input: { organizationId: string; userId: string; now: Date },
): Promise<ApiKeyRow[]> {
  const rows = await db
    .updateTable('api_keys')
    .set({ deleted_at: input.now })
    .where('user_id', '=', input.organizationId)
    .where('member_user_id', '=', input.userId)
    .where('deleted_at', 'is', null)
    .returningAll()
    .execute();
  return rows.map((row) => ({ ...row, deleted_at: null }));
}
