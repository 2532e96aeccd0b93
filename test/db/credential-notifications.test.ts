// Migration 0003's triggers announce credential changes on `modelgate_credentials`, and the listener turns them into
// cache invalidations (and turns caching off while it cannot hear them).
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { CredentialCache } from '../../src/auth/credential-cache.js';
import type { Principal } from '../../src/auth/principal.js';
import { CREDENTIAL_CHANNEL, listenForCredentialChanges } from '../../src/db/credential-notifications.js';
import type { Db } from '../../src/db/database.js';
import { createLogger } from '../../src/logger.js';
import { revokeAccountToken, insertAccountToken } from '../../src/repositories/account-tokens.js';
import { setApiKeyLimits, softDeleteApiKey, touchApiKeysLastUsed } from '../../src/repositories/api-keys.js';
import {
  describeEachBackend,
  describeWithPostgres,
  insertTestUser,
  openTestDatabase,
  uniqueId,
  type OpenTestDatabase,
  insertTestApiKey,
} from '../helpers/databases.js';

const WAIT = { timeout: 5000, interval: 10 };

describeEachBackend('credential change triggers', (backend) => {
  let database: OpenTestDatabase;
  let db: Db;
  const heard: string[] = [];
  let stopListening: () => Promise<void>;

  beforeAll(async () => {
    database = await openTestDatabase(backend, { migrated: true });
    db = database.db;
    if (database.url !== undefined) {
      // Another session, as another gateway instance would have.
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      client.on('notification', (m) => m.channel === CREDENTIAL_CHANNEL && heard.push(m.payload ?? ''));
      await client.query(`listen ${CREDENTIAL_CHANNEL}`);
      stopListening = () => client.end();
    } else {
      // PGlite is one session: it hears its own NOTIFYs, which is what the embedded gateway relies on.
      const off = database.pglite!.onNotification(
        (channel, payload) => channel === CREDENTIAL_CHANNEL && heard.push(payload),
      );
      await sql.raw(`listen ${CREDENTIAL_CHANNEL}`).execute(db);
      stopListening = async () => off();
    }
  });
  afterAll(async () => {
    await stopListening?.();
    await database?.close();
  });

  /** Makes an unrelated change and waits for it: notifications arrive in commit order, so anything earlier is in. */
  async function barrier(): Promise<void> {
    const user = await insertTestUser(db);
    const marker = await insertTestApiKey(db, user.id);
    await setApiKeyLimits(db, marker.id, { rate_limit_rpm: 1 });
    await vi.waitFor(() => expect(heard).toContain(marker.key_hash), WAIT);
  }

  it('announces a soft-deleted key by its hash', async () => {
    const user = await insertTestUser(db);
    const key = await insertTestApiKey(db, user.id);
    await softDeleteApiKey(db, { userId: user.id, keyId: key.id, now: new Date() });
    await vi.waitFor(() => expect(heard).toContain(key.key_hash), WAIT);
  });

  it('announces a key whose limits changed by its hash', async () => {
    const user = await insertTestUser(db);
    const key = await insertTestApiKey(db, user.id);
    await setApiKeyLimits(db, key.id, { rate_limit_tpm: 1000 });
    await vi.waitFor(() => expect(heard).toContain(key.key_hash), WAIT);
  });

  it('announces a hard-deleted key and a revoked account token by their hashes', async () => {
    const user = await insertTestUser(db);
    const key = await insertTestApiKey(db, user.id);
    const token = await insertAccountToken(db, {
      id: uniqueId('tok_'),
      user_id: user.id,
      token_hash: uniqueId('thash'),
      display_prefix: 'mgt-v1-ab12',
    });
    await db.deleteFrom('api_keys').where('id', '=', key.id).execute();
    await revokeAccountToken(db, { userId: user.id, tokenId: token.id, now: new Date() });
    await vi.waitFor(() => expect(heard).toEqual(expect.arrayContaining([key.key_hash, token.token_hash])), WAIT);
  });

  it('announces "*" when a user row changes', async () => {
    const user = await insertTestUser(db);
    const before = heard.filter((p) => p === '*').length;
    await db
      .updateTable('users')
      .set({ email: `renamed-${user.email}` })
      .where('id', '=', user.id)
      .execute();
    await vi.waitFor(() => expect(heard.filter((p) => p === '*').length).toBe(before + 1), WAIT);
  });

  it('stays silent for last-used updates, inserts and rolled-back changes', async () => {
    const user = await insertTestUser(db);
    const key = await insertTestApiKey(db, user.id);
    await touchApiKeysLastUsed(db, [key.id], new Date());
    await db
      .transaction()
      .execute(async (trx) => {
        await setApiKeyLimits(trx, key.id, { rate_limit_rpm: 5 });
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await barrier();
    expect(heard).not.toContain(key.key_hash);
  });
});

function apiKeyPrincipal(id: string): Principal {
  return {
    kind: 'api_key',
    organizationId: 'usr',
    memberUserId: 'usr',
    role: 'owner',
    email: 'a@example.com',
    credentialId: id,
    limits: { rateLimitRpm: null, rateLimitTpm: null, freeRequestsPerDay: null, creditLimitNanos: null },
  };
}

describeWithPostgres('credential listener [postgres]', () => {
  let database: OpenTestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase('postgres', { migrated: true });
  });
  afterAll(async () => {
    await database?.close();
  });

  it('invalidates on notifications, turns caching off when its connection drops and back on after LISTEN again', async () => {
    const db = database.db;
    const cache = new CredentialCache({ ttlMs: 60_000 });
    const enabled = vi.spyOn(cache, 'setEnabled');
    const listener = await listenForCredentialChanges({
      databaseUrl: database.url!,
      cache,
      logger: createLogger('silent'),
      initialDelayMs: 20,
    });
    try {
      expect(cache.active).toBe(true);
      const user = await insertTestUser(db);
      const key = await insertTestApiKey(db, user.id);
      await cache.lookup(key.key_hash, async () => apiKeyPrincipal(key.id));
      expect(cache.size).toBe(1);
      await setApiKeyLimits(db, key.id, { rate_limit_rpm: 7 });
      await vi.waitFor(() => expect(cache.size).toBe(0), WAIT);

      // Drop the LISTEN connection from the server side, as a restart or network cut would.
      const { rows } = await sql<{ pid: number }>`
        select pid from pg_stat_activity
        where datname = current_database() and query ilike ${`listen ${CREDENTIAL_CHANNEL}%`}`.execute(db);
      expect(rows).toHaveLength(1);
      await sql`select pg_terminate_backend(${rows[0].pid})`.execute(db);
      await vi.waitFor(() => expect(enabled.mock.calls.map(([on]) => on)).toEqual([false, true, false, true]), WAIT);
      expect(cache.active).toBe(true);

      // The new connection hears changes too.
      await cache.lookup(key.key_hash, async () => apiKeyPrincipal(key.id));
      expect(cache.size).toBe(1);
      await softDeleteApiKey(db, { userId: user.id, keyId: key.id, now: new Date() });
      await vi.waitFor(() => expect(cache.size).toBe(0), WAIT);
    } finally {
      await listener.close();
    }
  });

  it('starts with caching off when PostgreSQL cannot be reached, and stops retrying on close', async () => {
    const cache = new CredentialCache({ ttlMs: 60_000 });
    const listener = await listenForCredentialChanges({
      databaseUrl: 'postgres://nobody@127.0.0.1:1/none',
      cache,
      logger: createLogger('silent'),
      initialDelayMs: 60_000,
    });
    expect(cache.active).toBe(false);
    await listener.close();
  });
});
