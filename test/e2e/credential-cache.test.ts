// Authentication from memory, and deletion still taking effect: through the API (in-process invalidation) and
// through another connection (database notification), with a control gateway that hears nothing.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { describeWithPostgres, openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';

const WAIT = { timeout: 5000, interval: 20 };

/** The same database without its URL or instance: a gateway on it has no notification listener. */
function deaf(database: OpenTestDatabase): OpenTestDatabase {
  return { db: database.db, close: async () => undefined };
}

const status = async (gw: TestGateway, key: string) => (await gw.fetch('/api/v1/api-keys', { key })).status;

describeWithPostgres('credential cache across processes [postgres]', () => {
  let database: OpenTestDatabase;
  let gw: TestGateway;
  let control: TestGateway;
  let other: pg.Client;

  beforeAll(async () => {
    database = await openTestDatabase('postgres', { migrated: true });
    gw = await startTestGateway({ database });
    control = await startTestGateway({ database: deaf(database) });
    // Stands in for the CLI or another gateway instance: its own connection, plain SQL.
    other = new pg.Client({ connectionString: database.url });
    await other.connect();
  });
  afterAll(async () => {
    await other?.end();
    await control?.close();
    await gw?.close();
    await database?.close();
  });

  it('answers 401 once another process soft-deletes a key the gateway had cached', async () => {
    const user = await gw.createUser();
    expect(await status(gw, user.key)).toBe(200);
    expect(await status(control, user.key)).toBe(200);
    expect(gw.parts.credentials.size).toBeGreaterThan(0);

    await other.query('update api_keys set deleted_at = now() where id = $1', [user.keyId]);

    await vi.waitFor(async () => expect(await status(gw, user.key)).toBe(401), WAIT);
    // Control: without the listener the key is still served from memory (until the TTL), so the 401 above came
    // from the notification and the cache above really was in use.
    expect(await status(control, user.key)).toBe(200);
  });

  it('forgets every credential when a user row changes in another process', async () => {
    const user = await gw.createUser();
    expect(await status(gw, user.key)).toBe(200);
    expect(gw.parts.credentials.size).toBeGreaterThan(0);
    await other.query(`update users set email = 'renamed-' || email where id = $1`, [user.userId]);
    await vi.waitFor(() => expect(gw.parts.credentials.size).toBe(0), WAIT);
    const listed = await gw.fetch('/api/v1/api-keys', { key: user.key });
    expect(listed.status).toBe(200);
  });
});

describe('credential cache in one process [pglite]', () => {
  let database: OpenTestDatabase;
  let gw: TestGateway;
  let deafGw: TestGateway;
  let uncached: TestGateway;

  beforeAll(async () => {
    database = await openTestDatabase('pglite', { migrated: true });
    gw = await startTestGateway({ database });
    deafGw = await startTestGateway({ database: deaf(database) });
    uncached = await startTestGateway({ database: deaf(database), env: { MODELGATE_CREDENTIAL_CACHE_SECONDS: '0' } });
  });
  afterAll(async () => {
    await uncached?.close();
    await deafGw?.close();
    await gw?.close();
    await database?.close();
  });

  it('answers 401 after a direct soft-delete, heard through PGlite notifications', async () => {
    const user = await gw.createUser();
    expect(await status(gw, user.key)).toBe(200);
    await database.db.updateTable('api_keys').set({ deleted_at: new Date() }).where('id', '=', user.keyId).execute();
    await vi.waitFor(async () => expect(await status(gw, user.key)).toBe(401), WAIT);
  });

  it('answers 401 on the very next request after DELETE through the API, without any notification', async () => {
    const owner = await deafGw.createUser();
    const token = await deafGw.createToken(owner.userId);
    const created = await deafGw.fetch('/api/v1/api-keys', {
      method: 'POST',
      key: token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'doomed' }),
    });
    const { key, key_id } = (await created.json()) as { key: string; key_id: string };
    expect(await status(deafGw, key)).toBe(200);
    expect(await status(deafGw, key)).toBe(200); // from memory now
    expect((await deafGw.fetch(`/api/v1/api-keys/${key_id}`, { method: 'DELETE', key: token })).status).toBe(200);
    expect(await status(deafGw, key)).toBe(401);
  });

  it('answers 401 on the very next request after a key revoked itself while served from memory', async () => {
    const owner = await deafGw.createUser();
    expect(await status(deafGw, owner.key)).toBe(200);
    expect(await status(deafGw, owner.key)).toBe(200); // from memory now
    expect((await deafGw.fetch(`/api/v1/api-keys/${owner.keyId}`, { method: 'DELETE', key: owner.key })).status).toBe(
      200,
    );
    expect(await status(deafGw, owner.key)).toBe(401);
  });

  it('asks the database on every request with MODELGATE_CREDENTIAL_CACHE_SECONDS=0', async () => {
    const user = await uncached.createUser();
    expect(await status(uncached, user.key)).toBe(200);
    expect(await status(deafGw, user.key)).toBe(200);
    await database.db.updateTable('api_keys').set({ deleted_at: new Date() }).where('id', '=', user.keyId).execute();
    expect(await status(uncached, user.key)).toBe(401);
    expect(uncached.parts.credentials.size).toBe(0);
    // Control: the cached, deaf gateway still serves it from memory.
    expect(await status(deafGw, user.key)).toBe(200);
  });
});
