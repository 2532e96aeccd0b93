import { sql, type Kysely } from 'kysely';

// Frozen in time: this migration must never import app code or change once released. Later schema
// changes go into new numbered migrations listed after it in index.ts.

// `Kysely<any>` on purpose: a migration describes the schema as it was, not the app's current types.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // The unique constraint is only meaningful if every writer normalises case the same way.
    .addCheckConstraint('users_email_lower_ck', sql`email = lower(email)`)
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('display_prefix', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('deleted_at', 'timestamptz')
    .addColumn('rate_limit_rpm', 'integer')
    .addColumn('rate_limit_tpm', 'integer')
    .addColumn('free_requests_per_day', 'integer')
    .addColumn('credit_limit_nanos', 'bigint')
    .execute();
  await db.schema
    .createIndex('api_keys_user_created_idx')
    .on('api_keys')
    .columns(['user_id', 'created_at desc'])
    .execute();

  await db.schema
    .createTable('account_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('display_prefix', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('account_tokens_user_idx').on('account_tokens').column('user_id').execute();

  await db.schema
    .createTable('credit_accounts')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id'))
    .addColumn('balance_nanos', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('reserved_nanos', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('total_granted_nanos', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('total_used_nanos', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('credit_accounts_reserved_ck', sql`reserved_nanos >= 0`)
    // Last line of defence behind the conditional UPDATEs: credits are never overdrawn.
    .addCheckConstraint('credit_accounts_balance_ck', sql`balance_nanos >= 0`)
    .execute();

  await db.schema
    .createTable('credit_ledger')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('amount_nanos', 'bigint', (c) => c.notNull())
    .addColumn('generation_id', 'text')
    .addColumn('note', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint(
      'credit_ledger_kind_ck',
      sql`(kind = 'grant' and amount_nanos > 0)
        or (kind = 'debit' and amount_nanos <= 0 and generation_id is not null)
        or kind = 'adjustment'`,
    )
    .execute();
  // A generation is debited at most once: settle relies on this for idempotency.
  await db.schema
    .createIndex('credit_ledger_debit_generation_uq')
    .on('credit_ledger')
    .column('generation_id')
    .unique()
    .where(sql.ref('kind'), '=', sql.lit('debit'))
    .execute();
  await db.schema
    .createIndex('credit_ledger_user_id_idx')
    .on('credit_ledger')
    .columns(['user_id', 'id desc'])
    .execute();

  await db.schema
    .createTable('generations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('api_key_id', 'text')
    .addColumn('access_mode', 'text', (c) => c.notNull().check(sql`access_mode in ('credits', 'free', 'pass')`))
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('upstream_model', 'text', (c) => c.notNull())
    .addColumn('upstream_id', 'text')
    .addColumn('streamed', 'boolean', (c) => c.notNull())
    .addColumn('finish_reason', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('success', 'error', 'aborted')`))
    .addColumn('http_status', 'integer')
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('prompt_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('completion_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cached_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cache_write_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('reasoning_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cost_nanos', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('reference_cost_nanos', 'bigint')
    .addColumn('latency_ms', 'integer', (c) => c.notNull())
    .addColumn('time_to_first_token_ms', 'integer')
    .addColumn('app_title', 'text')
    .addColumn('app_referer', 'text')
    .addColumn('task_id', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('generations_user_created_idx')
    .on('generations')
    .columns(['user_id', 'created_at desc'])
    .execute();
  await db.schema
    .createIndex('generations_api_key_created_idx')
    .on('generations')
    .columns(['api_key_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('plan', 'text', (c) => c.notNull().check(sql`plan in ('pass')`))
    .addColumn('price_nanos', 'bigint', (c) => c.notNull().check(sql`price_nanos >= 0`))
    .addColumn('period_start', 'timestamptz', (c) => c.notNull())
    .addColumn('period_end', 'timestamptz', (c) => c.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint('subscriptions_period_ck', sql`period_end > period_start`)
    .execute();
  await db.schema
    .createIndex('subscriptions_user_period_end_idx')
    .on('subscriptions')
    .columns(['user_id', 'period_end'])
    .execute();

  await db.schema
    .createTable('pass_usage')
    .addColumn('id', 'bigint', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('generation_id', 'text', (c) => c.unique())
    .addColumn('reference_cost_nanos', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('pass_usage_user_created_idx')
    .on('pass_usage')
    .columns(['user_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'pass_usage',
    'subscriptions',
    'generations',
    'credit_ledger',
    'credit_accounts',
    'account_tokens',
    'api_keys',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
