import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connect.js';
import type { Db } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createUser, findUserById } from '../../src/repositories/users.js';
import { describeEachDatabase, describeWithPostgres, openTestDatabase, uniqueId } from '../helpers/databases.js';

const MAX_INT8 = 9_223_372_036_854_775_807n;
const FIXED_TIME = new Date('2024-02-29T12:34:56.789Z');

/** One query exercising every value type the schema uses; its result must not depend on the backend. */
async function typeProbe(db: Db) {
  const { rows } = await sql<Record<string, unknown>>`
    select ${MAX_INT8}::bigint as max_int8, (-5)::bigint as negative_int8, count(*) as count_star,
           42::integer as int4, ${FIXED_TIME}::timestamptz as fixed_time, true as bool,
           null::bigint as null_int8, 'text'::text as txt`.execute(db);
  return rows[0];
}

describeEachDatabase('value types', (ctx) => {
  it('returns int8 as bigint, int4 as number and timestamptz as Date', async () => {
    expect(await typeProbe(ctx.db())).toEqual({
      max_int8: MAX_INT8,
      negative_int8: -5n,
      count_star: 1n,
      int4: 42,
      fixed_time: FIXED_TIME,
      bool: true,
      null_int8: null,
      txt: 'text',
    });
  });

  it('round-trips bigint and Date columns through inserts', async () => {
    const db = ctx.db();
    const user = await createUser(db, { id: uniqueId('usr_'), email: `${uniqueId('t')}@example.com` });
    expect(user.created_at).toBeInstanceOf(Date);
    const keyId = uniqueId('key_');
    await db
      .insertInto('api_keys')
      .values({
        id: keyId,
        user_id: user.id,
        member_user_id: user.id,
        name: 'n',
        key_hash: uniqueId('h'),
        display_prefix: 'mg-v1-x',
        credit_limit_nanos: MAX_INT8,
        rate_limit_rpm: 60,
        last_used_at: FIXED_TIME,
      })
      .execute();
    const row = await db.selectFrom('api_keys').selectAll().where('id', '=', keyId).executeTakeFirstOrThrow();
    expect(row.credit_limit_nanos).toBe(MAX_INT8);
    expect(row.rate_limit_rpm).toBe(60);
    expect(row.last_used_at).toEqual(FIXED_TIME);
    expect(row.deleted_at).toBeNull();
  });

  it('rolls back a failed transaction', async () => {
    const db = ctx.db();
    const id = uniqueId('usr_');
    await expect(
      db.transaction().execute(async (trx) => {
        await createUser(trx, { id, email: `${id}@example.com` });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await findUserById(db, id)).toBeUndefined();
  });
});

describeWithPostgres('PGlite and PostgreSQL agree', () => {
  it('returns identical values and JS types for the same query', async () => {
    const [pglite, postgres] = await Promise.all([
      openTestDatabase('pglite', { migrated: true }), // the cached snapshot: much faster than initdb
      openTestDatabase('postgres', { migrated: false }),
    ]);
    try {
      const [fromPglite, fromPostgres] = await Promise.all([typeProbe(pglite.db), typeProbe(postgres.db)]);
      // toStrictEqual tells 1n from 1 and a Date from an ISO string.
      expect(fromPglite).toStrictEqual(fromPostgres);
    } finally {
      await Promise.all([pglite.close(), postgres.close()]);
    }
  });
});

describe('PGlite dialect', () => {
  let db: Db;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await openTestDatabase('pglite', { migrated: true }));
  });
  afterAll(() => close());

  it('queues concurrent transactions instead of interleaving them', async () => {
    const userId = uniqueId('usr_');
    await createUser(db, { id: userId, email: `${userId}@example.com` });
    await db.insertInto('credit_accounts').values({ user_id: userId }).execute();
    // Read-modify-write without row locks: only correct if the transactions run one after another.
    const increment = () =>
      db.transaction().execute(async (trx) => {
        const { balance_nanos } = await trx
          .selectFrom('credit_accounts')
          .select('balance_nanos')
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow();
        await new Promise((resolve) => setTimeout(resolve, 5));
        await trx
          .updateTable('credit_accounts')
          .set({ balance_nanos: balance_nanos + 1n })
          .where('user_id', '=', userId)
          .execute();
      });
    await Promise.all(Array.from({ length: 10 }, increment));
    const row = await db
      .selectFrom('credit_accounts')
      .select('balance_nanos')
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(row.balance_nanos).toBe(10n);
  });

  it('persists in dataDir and keeps a schema of its own', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'mg-pglite-'));
    try {
      const first = await openDatabase({ dataDir: join(dataDir, 'nested'), schema: 'tenant_a' });
      await migrateToLatest(first.db);
      await createUser(first.db, { id: 'usr_persisted', email: 'Persisted@Example.com' });
      await first.close();

      const again = await openDatabase({ dataDir: join(dataDir, 'nested'), schema: 'tenant_a' });
      try {
        expect((await findUserById(again.db, 'usr_persisted'))?.email).toBe('persisted@example.com');
        const { rows } = await sql<{ table_schema: string }>`
          select table_schema from information_schema.tables where table_name = 'users'`.execute(again.db);
        expect(rows.map((r) => r.table_schema)).toEqual(['tenant_a']);
      } finally {
        await again.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
    // Two starts of a data folder (initdb, recovery with fsync on) and a synced shutdown checkpoint.
  }, 60_000);
});

describeWithPostgres('PostgreSQL schema option', () => {
  it('creates the schema and puts it on every pooled connection', async () => {
    const scratch = await openTestDatabase('postgres', { migrated: false });
    const inSchema = await openDatabase({ databaseUrl: scratch.url, schema: 'tenant_b', maxConnections: 3 });
    try {
      await migrateToLatest(inSchema.db);
      // Several connections at once, each must see tenant_b first.
      const paths = await Promise.all(
        Array.from({ length: 3 }, () =>
          inSchema.db.connection().execute(async (conn) => {
            const { rows } = await sql<{ schema: string }>`select current_schema() as schema, pg_sleep(0.05)`.execute(
              conn,
            );
            return rows[0].schema;
          }),
        ),
      );
      expect(paths).toEqual(['tenant_b', 'tenant_b', 'tenant_b']);
      const { rows } = await sql<{ table_schema: string }>`
        select table_schema from information_schema.tables where table_name = 'users'`.execute(scratch.db);
      expect(rows.map((r) => r.table_schema)).toEqual(['tenant_b']);
    } finally {
      await inSchema.close();
      await scratch.close();
    }
  });
});
