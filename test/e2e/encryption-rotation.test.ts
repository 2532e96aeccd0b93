// The master key of stored secrets, on PostgreSQL: `modelgate encryption rotate` re-wraps every data key (provider
// keys and webhook secrets) under the new key while requests on an organization's own key keep being served; the old
// key can then be dropped; start-up refuses to run with stored provider keys and no master key; and a pg_dump of the
// database holds no key or secret in clear.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithPostgres, openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream, type RecordedRequest } from '../helpers/mock-upstream.js';
import { runCli } from '../../src/cli.js';
import { openSecret, parseMasterKey } from '../../src/auth/secret-box.js';
import { OPERATOR } from '../../src/auth/member-roles.js';
import { CONSOLE_ACTOR } from '../../src/services/audit-log.js';
import { createWebhook } from '../../src/services/webhooks.js';

const PG_DUMP = '/usr/lib/postgresql/15/bin/pg_dump';
const OPERATOR_KEY = 'sk-up-operator-key-0001';
const OWN_KEY = 'sk-own-rotation-0123456789-e5f6';
const OLD = Buffer.alloc(32, 1).toString('base64');
const NEW = Buffer.alloc(32, 2).toString('base64');
const oldKey = parseMasterKey(OLD)!;
const newKey = parseMasterKey(NEW)!;

let database: OpenTestDatabase;
let upstream: MockUpstream;
const gateways: TestGateway[] = [];

const keyOf = (request: RecordedRequest) => String(request.headers.authorization).replace(/^Bearer /, '');

function gateway(env: Record<string, string>): Promise<TestGateway> {
  return startTestGateway({
    database,
    env: {
      MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
      OPENAI_API_KEY: OPERATOR_KEY,
      OPENAI_BASE_URL: `${upstream.url}/v1`,
      ...env,
    },
  }).then((gw) => {
    gateways.push(gw);
    return gw;
  });
}

async function chat(gw: TestGateway, key: string): Promise<number> {
  const res = await gw.fetch('/api/v1/chat/completions', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }], stream: false }),
  });
  await res.text();
  return res.status;
}

async function cli(env: Record<string, string>, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    argv,
    { DATABASE_URL: database.url!, LOG_LEVEL: 'silent', ...env },
    { out: (l) => out.push(l), err: (l) => err.push(l) },
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describeWithPostgres('master key rotation', () => {
  beforeAll(async () => {
    database = await openTestDatabase('postgres', { migrated: true });
    upstream = await new MockUpstream().start();
    upstream.always({
      kind: 'json',
      body: {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1,
        model: 'gpt-test-2026',
        choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 10, total_tokens: 15 },
      },
    });
  });
  afterAll(async () => {
    for (const gw of gateways) await gw.close().catch(() => undefined);
    await upstream?.close();
    await database?.close();
  });

  it('re-wraps every secret under the new key with traffic flowing, then runs on the new key alone', async () => {
    const before = await gateway({ MODELGATE_ENCRYPTION_KEY: OLD });
    const owner = await before.createUser();
    await before.grant(owner.userId, 10);
    const token = await before.createToken(owner.userId);
    const put = await before.fetch('/api/v1/provider-keys/openai', {
      method: 'PUT',
      key: token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: OWN_KEY, mode: 'only' }),
    });
    expect(put.status).toBe(200);
    const changer = { actor: OPERATOR, audit: CONSOLE_ACTOR };
    const settings = { url: 'https://hooks.example.com/modelgate', eventTypes: ['budget.threshold'] };
    const sealed = await createWebhook(database.db, changer, {
      organizationId: owner.userId,
      settings,
      masterKey: oldKey,
    });
    // Made before any master key was configured: kept as given, and sealed by the rotation.
    const plain = await createWebhook(database.db, changer, { organizationId: owner.userId, settings });
    expect(await chat(before, owner.key)).toBe(200);
    await before.close();
    gateways.splice(gateways.indexOf(before), 1);

    // Every gateway reads both keys first, then the rotation runs while requests keep coming.
    const rotating = await gateway({ MODELGATE_ENCRYPTION_KEY: NEW, MODELGATE_ENCRYPTION_KEY_PREVIOUS: OLD });
    upstream.requests.length = 0;
    let rotated = false;
    const statuses: number[] = [];
    const traffic = async () => {
      // Until the rotation is done, and a few requests after it (served by keys reloaded on its notifications).
      for (let after = 0; after < 5; ) {
        statuses.push(await chat(rotating, owner.key));
        if (rotated) after++;
      }
    };
    const loops = Promise.all([traffic(), traffic()]);
    const run = await cli(
      { MODELGATE_ENCRYPTION_KEY: NEW, MODELGATE_ENCRYPTION_KEY_PREVIOUS: OLD },
      'encryption',
      'rotate',
      '--json',
    );
    rotated = true;
    await loops;
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out)).toMatchObject({
      key_id: newKey.id,
      provider_keys: 1,
      webhook_secrets: 2,
      unreadable: [],
    });
    expect(statuses.length).toBeGreaterThanOrEqual(10);
    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(upstream.requests.every((request) => keyOf(request) === OWN_KEY)).toBe(true);

    const row = await database.db.selectFrom('provider_keys').selectAll().executeTakeFirstOrThrow();
    expect(row.key_ciphertext.startsWith(`v1:${newKey.id}:`)).toBe(true);
    expect(openSecret(row.key_ciphertext, newKey)).toBe(OWN_KEY);
    for (const made of [sealed, plain]) {
      const endpoint = await database.db
        .selectFrom('webhook_endpoints')
        .select('secret_ciphertext')
        .where('id', '=', made.row.id)
        .executeTakeFirstOrThrow();
      expect(openSecret(endpoint.secret_ciphertext, newKey)).toBe(made.secret);
    }
    // Run again: nothing left to do.
    const again = await cli(
      { MODELGATE_ENCRYPTION_KEY: NEW, MODELGATE_ENCRYPTION_KEY_PREVIOUS: OLD },
      'encryption',
      'rotate',
    );
    expect(again.out).toMatch(/re-wrapped 0 provider keys and 0 webhook secrets .* 3 already under it/);

    // The old key is dropped: the own key still serves.
    await rotating.close();
    gateways.splice(gateways.indexOf(rotating), 1);
    const after = await gateway({ MODELGATE_ENCRYPTION_KEY: NEW });
    upstream.requests.length = 0;
    expect(await chat(after, owner.key)).toBe(200);
    expect(upstream.requests.map(keyOf)).toEqual([OWN_KEY]);
    for (const gw of gateways) expect(gw.logs.join('\n')).not.toContain(OWN_KEY);

    // A database dump holds the keys and secrets only sealed.
    const { stdout } = await promisify(execFile)(PG_DUMP, ['--data-only', `--dbname=${database.url}`], {
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(stdout).toContain(row.key_ciphertext);
    expect(stdout).not.toContain(OWN_KEY);
    expect(stdout).not.toContain(sealed.secret);
    expect(stdout).not.toContain(plain.secret);
    // Three gateways and two CLI processes (each a fresh tsx start): minutes on a busy machine, not 30 s.
  }, 180_000);

  it('refuses to start with stored provider keys and no master key, saying so', async () => {
    await expect(gateway({})).rejects.toThrow(
      /MODELGATE_ENCRYPTION_KEY is not set, but organizations' own provider keys/,
    );
  });

  it('rotate names the secrets no configured key opens, and exits 1', async () => {
    const run = await cli({ MODELGATE_ENCRYPTION_KEY: OLD }, 'encryption', 'rotate');
    expect(run.code).toBe(1);
    expect(run.err).toContain(newKey.id);
    expect(run.err).toContain('MODELGATE_ENCRYPTION_KEY_PREVIOUS');
    expect(run.err).not.toContain(OWN_KEY);
  });
});
