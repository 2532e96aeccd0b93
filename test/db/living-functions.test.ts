// The SQL functions with a living definition (src/db/functions/): a fresh database and one upgraded from the oldest
// schema end with the same definitions, the module's own, and settle a batch to the same rows; installs from several
// processes at once do not fail; a database holding a higher revision keeps it; and a change of a definition's text
// raises its revision.
import { createHash } from 'node:crypto';
import { Migrator, sql, type Migration } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { LIVING_FUNCTIONS } from '../../src/db/functions/index.js';
import { installFunctions, revisionComment } from '../../src/db/functions/install-functions.js';
import type { LivingFunction } from '../../src/db/functions/living-function.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import type { NewGeneration } from '../../src/db/tables/generations.js';
import { grantCredits, reserveCredits } from '../../src/repositories/credits.js';
import { settleGenerationBatch, type GenerationSettlement } from '../../src/repositories/settlements.js';
import { describeEachBackend, openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';
import { creditsGenerationRecord } from '../helpers/generation-records.js';

/** The sha256 of each function's body at its current revision: a new text needs a new revision (and a new line). */
const FINGERPRINTS: Record<string, { revision: number; sha256: string }> = {
  generations_add_usage_totals: {
    revision: 2,
    sha256: 'fb283cc0ac57e952ad20e72de0fbbbb8f55c8a5b283f030b126940117eea6105',
  },
  settle_generations: {
    revision: 5,
    sha256: '9d85217ae8ab9acc1a3d62e4480a1ce5839a268ffe310d448ee60e3236f3f7b9',
  },
};

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

describe('living function modules', () => {
  it('raise their revision with every change of their text', () => {
    for (const fn of LIVING_FUNCTIONS) {
      expect({ name: fn.name, revision: fn.revision, sha256: sha256(fn.body) }).toEqual({
        name: fn.name,
        ...FINGERPRINTS[fn.name],
      });
    }
  });
});

interface Definition {
  name: string;
  definition: string;
  body: string;
  comment: string | null;
}

/** Every function of the gateway's schema, as PostgreSQL prints it. */
async function definitions(db: Db): Promise<Definition[]> {
  const { rows } = await sql<Definition>`
    select p.proname as name, pg_get_functiondef(p.oid) as definition, p.prosrc as body,
      obj_description(p.oid, 'pg_proc') as comment
    from pg_proc p
    where p.pronamespace = to_regnamespace(current_schema())
    order by p.proname, pg_get_function_identity_arguments(p.oid)`.execute(db);
  return rows;
}

function frozenMigrator(db: Db): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async (): Promise<Record<string, Migration>> => Object.fromEntries(migrations) },
  });
}

const CREATED_AT = new Date('2026-03-04T05:06:07.000Z');

function record(userId: string, id: string, costNanos: bigint, extra: Partial<NewGeneration> = {}): NewGeneration {
  return { ...creditsGenerationRecord(userId, costNanos, id), created_at: CREATED_AT, ...extra };
}

/** One batch touching every part of the settlement: debits, a debt, a repeat, a free record, fees, a cache hit. */
async function settleOneBatch(db: Db): Promise<number> {
  for (const id of ['usr_living_a', 'usr_living_b']) {
    await db
      .insertInto('users')
      .values({ id, email: `${id}@example.com` })
      .execute();
    await grantCredits(db, { userId: id, amountNanos: 1_000n });
    expect((await reserveCredits(db, { userId: id, amountNanos: 600n })).ok).toBe(true);
  }
  const items: GenerationSettlement[] = [
    { settle: 'credits', reservedNanos: 300n, record: record('usr_living_a', 'gen-living-1', 250n) },
    {
      settle: 'credits',
      reservedNanos: 300n,
      record: record('usr_living_a', 'gen-living-2', 900n, {
        web_search_requests: 2,
        tool_uses: { maps_grounding: 1 },
      }),
    },
    { settle: 'credits', reservedNanos: 300n, record: record('usr_living_a', 'gen-living-1', 250n) },
    {
      settle: 'credits',
      reservedNanos: 600n,
      record: record('usr_living_b', 'gen-living-3', 40n, { cache_hit: true, cache_saved_nanos: 360n }),
    },
    { settle: 'none', record: record('usr_living_b', 'gen-living-4', 0n, { access_mode: 'free' }) },
  ];
  return settleGenerationBatch(db, items);
}

/** What a settlement writes, without the columns a clock or a sequence fills. */
async function settledRows(db: Db): Promise<unknown> {
  return {
    generations: await db.selectFrom('generations').selectAll().orderBy('id').execute(),
    accounts: await db
      .selectFrom('credit_accounts')
      .select(['user_id', 'balance_nanos', 'reserved_nanos', 'total_used_nanos'])
      .orderBy('user_id')
      .execute(),
    ledger: await db
      .selectFrom('credit_ledger')
      .select(['user_id', 'kind', 'amount_nanos', 'generation_id'])
      .orderBy('user_id')
      .orderBy('kind')
      .orderBy('generation_id')
      .execute(),
    daily: await db.selectFrom('usage_daily').selectAll().orderBy('user_id').orderBy('model').execute(),
  };
}

/** Rewrites `fn` in the database with `marker` appended to its text and the given revision in its comment. */
async function plant(db: Db, fn: LivingFunction, revision: number, marker: string): Promise<void> {
  const body = `${fn.body}-- ${marker}\n`;
  await sql
    .raw(`create or replace function ${fn.name}(${fn.parameters}) returns ${fn.returns}
language plpgsql as $fn$${body}$fn$`)
    .execute(db);
  await sql.raw(`comment on function ${fn.name}(${fn.parameters}) is '${revisionComment(revision)}'`).execute(db);
}

describeEachBackend('living SQL functions', (backend) => {
  it('are the same on a fresh database and on one upgraded from the oldest schema, and settle alike', async () => {
    const fresh = await openTestDatabase(backend, { migrated: false });
    const upgraded = await openTestDatabase(backend, { migrated: false });
    try {
      await migrateToLatest(fresh.db);
      // The oldest schema, then every frozen migration as a release before the living definitions ran them (no
      // install), then a start of this release.
      const first = await frozenMigrator(upgraded.db).migrateTo(migrations[0][0]);
      expect(first.error).toBeUndefined();
      const rest = await frozenMigrator(upgraded.db).migrateToLatest();
      expect(rest.error).toBeUndefined();
      await migrateToLatest(upgraded.db);

      const freshDefinitions = await definitions(fresh.db);
      expect(await definitions(upgraded.db)).toEqual(freshDefinitions);
      for (const fn of LIVING_FUNCTIONS) {
        const installed = freshDefinitions.filter((d) => d.name === fn.name && d.body === fn.body);
        expect(installed).toHaveLength(1);
        expect(installed[0].comment).toBe(revisionComment(fn.revision));
      }

      expect(await settleOneBatch(fresh.db)).toBe(4);
      expect(await settleOneBatch(upgraded.db)).toBe(4);
      const rows = await settledRows(fresh.db);
      expect(await settledRows(upgraded.db)).toEqual(rows);
      expect(rows).toMatchObject({
        accounts: [
          { user_id: 'usr_living_a', balance_nanos: -150n, reserved_nanos: 0n, total_used_nanos: 1_150n },
          { user_id: 'usr_living_b', balance_nanos: 960n, reserved_nanos: 0n, total_used_nanos: 40n },
        ],
      });
    } finally {
      await upgraded.close();
      await fresh.close();
    }
    // Two databases migrated from empty: PGlite runs each migration's SQL on one slow session.
  }, 120_000);

  it('install from several processes at once without failing', async () => {
    const database = await openTestDatabase(backend, { migrated: true });
    // PostgreSQL: more pools stand in for more gateway processes starting at the same moment.
    const others: Db[] = [];
    const closers: Array<() => Promise<void>> = [];
    if (database.url !== undefined) {
      for (let i = 0; i < 3; i++) {
        const other = await openDatabase({ databaseUrl: database.url, maxConnections: 2 });
        others.push(other.db);
        closers.push(other.close);
      }
    }
    try {
      const pools = [database.db, ...others];
      for (let round = 0; round < 5; round++) {
        // An older revision everywhere, so that every process finds work to do.
        for (const fn of LIVING_FUNCTIONS) await plant(database.db, fn, 0, `round ${round}`);
        await Promise.all(pools.flatMap((db) => [installFunctions(db), installFunctions(db)]));
        await expectLiving(database);
      }
    } finally {
      for (const close of closers) await close();
      await database.close();
    }
  });

  it('keep a higher revision the database holds, and replace a lower one', async () => {
    const database = await openTestDatabase(backend, { migrated: true });
    try {
      const [newer, older] = LIVING_FUNCTIONS;
      await plant(database.db, newer, newer.revision + 1, 'a newer release');
      await plant(database.db, older, older.revision - 1, 'an older release');
      await migrateToLatest(database.db);
      const installed = await definitions(database.db);
      const kept = installed.filter((d) => d.name === newer.name && d.body.includes('a newer release'));
      expect(kept).toMatchObject([
        { body: `${newer.body}-- a newer release\n`, comment: revisionComment(newer.revision + 1) },
      ]);
      const replaced = installed.filter((d) => d.name === older.name && d.body === older.body);
      expect(replaced).toMatchObject([{ comment: revisionComment(older.revision) }]);
    } finally {
      await database.close();
    }
  });
});

async function expectLiving(database: OpenTestDatabase): Promise<void> {
  const installed = await definitions(database.db);
  for (const fn of LIVING_FUNCTIONS) {
    expect(installed.filter((d) => d.name === fn.name && d.body === fn.body)).toHaveLength(1);
  }
}
