import type { Guardrail } from '../../core/guardrail.js';
import type { KeyLimitReset } from './api-keys.js';
import type { Generated, Insertable, Selectable } from 'kysely';

/**
 * `organizations` (migration 0015): what owns credits, keys, the pass subscription and usage. The money and usage
 * tables name their organization in a column still called `user_id`; a user's personal organization has the user's
 * own id, so the accounts of earlier releases kept their rows.
 */
export interface OrganizationsTable {
  id: string;
  name: string;
  /** The organization every user gets, of which the user is the owner. */
  personal: Generated<boolean>;
  created_at: Generated<Date>;
  /** The budget (migration 0016): its limit in nano-USD, null without one. */
  budget_limit_nanos: Generated<bigint | null>;
  /** When the budget starts over (UTC calendar); null: never. */
  budget_reset: Generated<KeyLimitReset | null>;
  /** The organization's guardrails (migration 0022), applied to every key's requests; null: none. */
  guardrails: Generated<Guardrail[] | null>;
}

export type OrganizationRow = Selectable<OrganizationsTable>;
export type NewOrganization = Insertable<OrganizationsTable>;

/** `organization_aliases` (migration 0020): an organization's own name for a catalog model. */
export interface OrganizationAliasesTable {
  organization_id: string;
  name: string;
  /** The catalog model id it names (never another alias). */
  model: string;
  description: string | null;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export type OrganizationAliasRow = Selectable<OrganizationAliasesTable>;
