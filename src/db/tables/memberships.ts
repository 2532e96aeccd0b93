import type { KeyLimitReset } from './api-keys.js';
import type { Generated, Insertable, Selectable } from 'kysely';

/** What a member may do in an organization (src/auth/member-roles.ts). */
export type MemberRole = 'owner' | 'admin' | 'member';

/** `memberships` (migration 0015): a user's place in an organization; a CHECK holds the role to the three. */
export interface MembershipsTable {
  organization_id: string;
  user_id: string;
  role: MemberRole;
  created_at: Generated<Date>;
  /** The budget (migration 0016): its limit in nano-USD, null without one. */
  budget_limit_nanos: Generated<bigint | null>;
  /** When the budget starts over (UTC calendar); null: never. */
  budget_reset: Generated<KeyLimitReset | null>;
}

export type MembershipRow = Selectable<MembershipsTable>;
export type NewMembership = Insertable<MembershipsTable>;
