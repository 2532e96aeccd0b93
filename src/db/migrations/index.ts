import type { Migration } from 'kysely';
import * as m0001 from './0001_initial.js';
import * as m0002 from './0002_pass_usage_reservations.js';
import * as m0003 from './0003_credential_notifications.js';
import * as m0004 from './0004_credit_leases.js';
import * as m0005 from './0005_settle_generations.js';
import * as m0006 from './0006_settle_generations_single_pass.js';
import * as m0007 from './0007_key_limits_and_admin_keys.js';
import * as m0008 from './0008_generation_format_and_attempts.js';
import * as m0009 from './0009_key_spend_holders.js';
import * as m0010 from './0010_management_keys.js';
import * as m0011 from './0011_debt_not_write_off.js';
import * as m0012 from './0012_usage_totals.js';
import * as m0013 from './0013_embeddings_and_response_cache.js';
import * as m0014 from './0014_tool_fees.js';
import * as m0015 from './0015_organizations.js';
import * as m0016 from './0016_budgets.js';
import * as m0017 from './0017_webhooks_and_audit_log.js';
import * as m0018 from './0018_stored_responses.js';
import * as m0019 from './0019_provider_keys.js';
import * as m0020 from './0020_organization_aliases.js';
import * as m0021 from './0021_presets.js';
import * as m0022 from './0022_guardrails.js';
import * as m0023 from './0023_key_budgets.js';
import * as m0024 from './0024_member_usage_and_budget_marks.js';

/**
 * Every migration, oldest first. Names are what Kysely records in `kysely_migration`, so an entry
 * is never renamed or removed once released; append new ones at the end.
 */
export const migrations: ReadonlyArray<readonly [name: string, migration: Migration]> = [
  ['0001_initial', m0001],
  ['0002_pass_usage_reservations', m0002],
  ['0003_credential_notifications', m0003],
  ['0004_credit_leases', m0004],
  ['0005_settle_generations', m0005],
  ['0006_settle_generations_single_pass', m0006],
  ['0007_key_limits_and_admin_keys', m0007],
  ['0008_generation_format_and_attempts', m0008],
  ['0009_key_spend_holders', m0009],
  ['0010_management_keys', m0010],
  ['0011_debt_not_write_off', m0011],
  ['0012_usage_totals', m0012],
  ['0013_embeddings_and_response_cache', m0013],
  ['0014_tool_fees', m0014],
  ['0015_organizations', m0015],
  ['0016_budgets', m0016],
  ['0017_webhooks_and_audit_log', m0017],
  ['0018_stored_responses', m0018],
  ['0019_provider_keys', m0019],
  ['0020_organization_aliases', m0020],
  ['0021_presets', m0021],
  ['0022_guardrails', m0022],
  ['0023_key_budgets', m0023],
  ['0024_member_usage_and_budget_marks', m0024],
];
