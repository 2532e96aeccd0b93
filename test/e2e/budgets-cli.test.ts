// `modelgate orgs budget ...`: the operator sets, reads and clears an organization's and a member's budget on the
// database a running gateway uses; the gateway hears of the change at once (its cached credentials are forgotten).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { describeWithPostgres, openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

describeWithPostgres('modelgate orgs budget [postgres]', () => {
  let database: OpenTestDatabase;
  let gw: TestGateway;
  const cli = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      argv,
      { DATABASE_URL: database.url, LOG_LEVEL: 'silent' },
      { out: (l) => out.push(l), err: (l) => err.push(l) },
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  beforeAll(async () => {
    database = await openTestDatabase('postgres', { migrated: true });
    // Refusals come before any upstream call: the upstream is never reached.
    gw = await startTestGateway({
      database,
      env: {
        MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
        OPENAI_API_KEY: 'sk-up',
        OPENAI_BASE_URL: 'http://127.0.0.1:9/v1',
      },
    });
  });
  afterAll(async () => {
    await gw?.close();
    await database?.close();
  });

  const chat = (key: string) =>
    gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }], stream: false }),
    });

  it("sets, reads and clears the organization's and a member's budget; the gateway applies them", async () => {
    const owner = await gw.createUser('budget-owner@example.com');
    await gw.grant(owner.userId, 5);
    const none = await cli('orgs', 'budget', '--id', owner.userId, '--json');
    expect(none.code, none.err).toBe(0);
    expect(JSON.parse(none.out).budget).toMatchObject({ limit_usd: null, spent_usd: 0 });

    const set = await cli('orgs', 'budget', '--id', owner.userId, '--limit', '0.000001', '--reset', 'daily');
    expect(set.code, set.err).toBe(0);
    expect(set.out).toContain('budget 0.000001 USD (daily)');
    const refused = await chat(owner.key);
    expect(refused.status).toBe(402);
    expect(((await refused.json()) as any).error.metadata.budget).toBe('organization');

    const cleared = await cli('orgs', 'budget', '--id', owner.userId, '--clear', '--json');
    expect(JSON.parse(cleared.out).budget.limit_usd).toBeNull();
    const member = await cli(
      'orgs',
      'budget',
      '--id',
      owner.userId,
      '--email',
      'budget-owner@example.com',
      '--limit',
      '0',
      '--json',
    );
    expect(member.code, member.err).toBe(0);
    expect(JSON.parse(member.out).budget).toMatchObject({ limit_usd: 0, reset: 'never', resets_at: null });
    const memberRefused = await chat(owner.key);
    expect(memberRefused.status).toBe(402);
    expect(((await memberRefused.json()) as any).error.metadata.budget).toBe('member');
  });

  it('refuses bad options with a usage error', async () => {
    const owner = await gw.createUser('budget-bad@example.com');
    expect((await cli('orgs', 'budget', '--id', owner.userId, '--limit', 'lots')).code).not.toBe(0);
    expect((await cli('orgs', 'budget', '--id', owner.userId, '--limit', '1', '--reset', 'hourly')).code).not.toBe(0);
    expect((await cli('orgs', 'budget', '--id', 'org_missing', '--limit', '1')).code).not.toBe(0);
  });
});
