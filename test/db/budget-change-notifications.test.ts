// The database tells every gateway on the credit lease channel which budget's limit went down (migration 0023), so
// their leases of it go back: a key's limit lowered, its reset changed, the key disabled or deleted; an organization's
// or member's budget lowered. Any other change (a key used, a limit raised or set where there was none) says nothing.
// Notifications arrive in commit order, so each expected message is awaited right after the changes before it.
import { sql } from 'kysely';
import { afterEach, expect, it, vi } from 'vitest';
import { listenOnChannel, type ChannelListener } from '../../src/db/notification-listener.js';
import { createLogger } from '../../src/logger.js';
import { CREDIT_LEASE_CHANNEL } from '../../src/repositories/credit-leases.js';
import { describeEachBackend, insertTestApiKey, insertTestUser, openTestDatabase } from '../helpers/databases.js';

const WAIT = { timeout: 5000, interval: 10 };

describeEachBackend('budget change notifications', (backend) => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await close?.();
    close = undefined;
  });

  it('names each lowered budget once, and nothing else', async () => {
    const database = await openTestDatabase(backend, { migrated: true });
    const heard: string[] = [];
    const listener: ChannelListener | undefined = await listenOnChannel(
      { db: database.db, databaseUrl: database.url, pglite: database.pglite },
      {
        channel: CREDIT_LEASE_CHANNEL,
        logger: createLogger('silent'),
        onListening: () => {},
        onPayload: (payload) => heard.push(payload),
      },
    );
    close = async () => {
      await listener?.close();
      await database.close();
    };
    const db = database.db;
    const user = await insertTestUser(db);
    const org = user.id;
    const key = await insertTestApiKey(db, org);
    const budget = (id: string) => JSON.stringify({ t: 'budget', b: id });
    const expectHeard = (...messages: string[]) =>
      vi.waitFor(() => expect(heard.map((m) => JSON.stringify(JSON.parse(m)))).toEqual(messages), WAIT);
    const setKey = (set: string) => sql.raw(`update api_keys set ${set} where id = '${key.id}'`).execute(db);

    // A limit set where there was none, a key used, a limit raised: nothing. Then a limit lowered.
    await setKey('credit_limit_nanos = 1000');
    await setKey('last_used_at = now()');
    await setKey('credit_limit_nanos = 2000');
    await setKey('credit_limit_nanos = 1500');
    const keyBudget = budget(`key:${org}:${key.id}`);
    await expectHeard(keyBudget);
    await setKey("limit_reset = 'daily'");
    await expectHeard(keyBudget, keyBudget);
    await setKey('disabled = true');
    await expectHeard(keyBudget, keyBudget, keyBudget);
    await setKey('disabled = false');
    await setKey('deleted_at = now()');
    await expectHeard(keyBudget, keyBudget, keyBudget, keyBudget);

    const orgBudget = budget(`organization:${org}`);
    const setOrg = (set: string) => sql.raw(`update organizations set ${set} where id = '${org}'`).execute(db);
    await setOrg('budget_limit_nanos = 1000');
    await setOrg('budget_limit_nanos = 500');
    await expectHeard(keyBudget, keyBudget, keyBudget, keyBudget, orgBudget);
    const setMember = (set: string) =>
      sql.raw(`update memberships set ${set} where organization_id = '${org}' and user_id = '${org}'`).execute(db);
    await setMember('budget_limit_nanos = 1000');
    await setMember('budget_limit_nanos = 1000');
    await setMember('budget_limit_nanos = 10');
    await expectHeard(keyBudget, keyBudget, keyBudget, keyBudget, orgBudget, budget(`member:${org}:${org}`));
  });
});
