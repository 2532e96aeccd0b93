// A PostgreSQL database created for one benchmark run and dropped after it, plus the accounting check that
// proves the gateway metered for real: every request settled, no reservation left behind, debits = costs.
import os from 'node:os';
import pg from 'pg';

export interface ScratchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

export interface AccountingSummary {
  generations: Record<string, number>;
  debitRows: number;
  debitedUsd: number;
  recordedCostUsd: number;
  reservedLeftNanos: string;
  /** reserved = 0, balance = granted − used, used = Σ debits = Σ recorded costs. */
  consistent: boolean;
}

function adminConfig(socketDir: string): pg.ClientConfig {
  return { host: socketDir, database: 'postgres', user: os.userInfo().username };
}

export async function createScratchDatabase(socketDir: string): Promise<ScratchDatabase> {
  const name = `modelgate_bench_${Date.now()}_${process.pid}`;
  const admin = new pg.Client(adminConfig(socketDir));
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = `postgresql://${encodeURIComponent(os.userInfo().username)}@/${name}?host=${socketDir}`;
  return {
    name,
    url,
    async drop() {
      const client = new pg.Client(adminConfig(socketDir));
      await client.connect();
      try {
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

const NANOS_PER_USD = 1_000_000_000n;

function usd(nanos: bigint): number {
  return Number(nanos) / Number(NANOS_PER_USD);
}

export async function accountingSummary(url: string): Promise<AccountingSummary> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const generations: Record<string, number> = {};
    const byStatus = await client.query<{ status: string; n: string }>(
      'select status, count(*) as n from generations group by status',
    );
    for (const row of byStatus.rows) generations[row.status] = Number(row.n);
    const cost = await client.query<{ total: string }>(
      'select coalesce(sum(cost_nanos), 0)::text as total from generations',
    );
    const debits = await client.query<{ n: string; total: string }>(
      "select count(*) as n, coalesce(-sum(amount_nanos), 0)::text as total from credit_ledger where kind = 'debit'",
    );
    const accounts = await client.query<{ balance: string; reserved: string; granted: string; used: string }>(
      `select coalesce(sum(balance_nanos), 0)::text as balance, coalesce(sum(reserved_nanos), 0)::text as reserved,
              coalesce(sum(total_granted_nanos), 0)::text as granted, coalesce(sum(total_used_nanos), 0)::text as used
         from credit_accounts`,
    );
    const account = accounts.rows[0];
    const recorded = BigInt(cost.rows[0].total);
    const debited = BigInt(debits.rows[0].total);
    const consistent =
      BigInt(account.reserved) === 0n &&
      BigInt(account.granted) - BigInt(account.used) === BigInt(account.balance) &&
      BigInt(account.used) === debited &&
      debited === recorded;
    return {
      generations,
      debitRows: Number(debits.rows[0].n),
      debitedUsd: usd(debited),
      recordedCostUsd: usd(recorded),
      reservedLeftNanos: account.reserved,
      consistent,
    };
  } finally {
    await client.end();
  }
}

/** Gives every key of the scratch database a monthly USD limit (set before the gateway starts, so none is cached). */
export async function setKeyLimits(url: string, usd: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("update api_keys set credit_limit_nanos = $1, limit_reset = 'monthly'", [
      (BigInt(Math.round(usd)) * 1_000_000_000n).toString(),
    ]);
  } finally {
    await client.end();
  }
}
