import type { Kysely, Transaction } from 'kysely';
import type { AccountTokensTable } from './tables/account-tokens.js';
import type { ApiKeysTable } from './tables/api-keys.js';
import type { ApiKeySpendTable } from './tables/api-key-spend.js';
import type { ApiKeySpendHoldsTable } from './tables/api-key-spend-holds.js';
import type { AdminKeysTable } from './tables/admin-keys.js';
import type { BudgetLeasesTable, BudgetSpendTable, SessionsTable } from './tables/budgets.js';
import type { CreditAccountsTable } from './tables/credit-accounts.js';
import type { CreditLeasesTable } from './tables/credit-leases.js';
import type { CreditLedgerTable } from './tables/credit-ledger.js';
import type { GenerationsTable } from './tables/generations.js';
import type { MembershipsTable } from './tables/memberships.js';
import type { OrganizationInvitationsTable } from './tables/organization-invitations.js';
import type { OrganizationAliasesTable, OrganizationsTable } from './tables/organizations.js';
import type { PresetsTable } from './tables/presets.js';
import type { ProviderKeysTable } from './tables/provider-keys.js';
import type { PassUsageTable } from './tables/pass-usage.js';
import type { SubscriptionsTable } from './tables/subscriptions.js';
import type { UsersTable } from './tables/users.js';
import type { AuditLogTable } from './tables/audit-log.js';
import type { StoredResponsesTable } from './tables/stored-responses.js';
import type {
  WebhookAttemptsTable,
  WebhookDeliveriesTable,
  WebhookEndpointsTable,
  WebhookEventsTable,
} from './tables/webhooks.js';
import type { GenerationRetentionTable, UsageDailyTable, UsageKeyTotalsTable } from './tables/usage-totals.js';

/** The one description of the schema that Kysely type-checks queries against (see migrations/). */
export interface Database {
  users: UsersTable;
  organizations: OrganizationsTable;
  organization_aliases: OrganizationAliasesTable;
  presets: PresetsTable;
  memberships: MembershipsTable;
  organization_invitations: OrganizationInvitationsTable;
  api_keys: ApiKeysTable;
  api_key_spend: ApiKeySpendTable;
  api_key_spend_holds: ApiKeySpendHoldsTable;
  admin_keys: AdminKeysTable;
  account_tokens: AccountTokensTable;
  credit_accounts: CreditAccountsTable;
  credit_ledger: CreditLedgerTable;
  credit_leases: CreditLeasesTable;
  generations: GenerationsTable;
  subscriptions: SubscriptionsTable;
  pass_usage: PassUsageTable;
  usage_daily: UsageDailyTable;
  usage_key_totals: UsageKeyTotalsTable;
  generation_retention: GenerationRetentionTable;
  budget_spend: BudgetSpendTable;
  budget_leases: BudgetLeasesTable;
  sessions: SessionsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  audit_log: AuditLogTable;
  provider_keys: ProviderKeysTable;
  stored_responses: StoredResponsesTable;
}

export type Db = Kysely<Database>;
/** Repositories take either, so callers can compose them inside one transaction. */
export type DbOrTrx = Kysely<Database> | Transaction<Database>;
