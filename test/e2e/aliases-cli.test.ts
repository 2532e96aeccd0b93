// `modelgate aliases ...`: the operator names models for an organization on the database a running gateway uses; the
// gateway hears of each change (its cached credentials, which carry the aliases, are forgotten) and serves the name.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { describeWithPostgres, openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { loadJson } from '../helpers/stream-replay.js';

describeWithPostgres('modelgate aliases [postgres]', () => {
  let database: OpenTestDatabase;
  let gw: TestGateway;
  let upstream: MockUpstream;
  const cli = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      argv,
      { DATABASE_URL: database.url, LOG_LEVEL: 'silent', MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json' },
      { out: (l) => out.push(l), err: (l) => err.push(l) },
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  beforeAll(async () => {
    database = await openTestDatabase('postgres', { migrated: true });
    upstream = await new MockUpstream().start();
    gw = await startTestGateway({
      database,
      env: {
        MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
        OPENAI_API_KEY: 'sk-up',
        OPENAI_BASE_URL: `${upstream.url}/v1`,
      },
    });
  });
  afterAll(async () => {
    await gw?.close();
    await upstream?.close();
    await database?.close();
  });

  const chat = (key: string, model: string) =>
    gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 20, messages: [{ role: 'user', content: 'hi' }], stream: false }),
    });

  /** The gateway hears the change from the database's notification: asks until the answer is `status`. */
  async function eventually(key: string, model: string, status: number): Promise<number> {
    let last = 0;
    for (let i = 0; i < 100 && last !== status; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 50));
      upstream.reply({ kind: 'json', body: loadJson('openai', 'text') });
      last = (await chat(key, model)).status;
    }
    return last;
  }

  it('sets, lists and deletes an alias; the running gateway serves it, then forgets it', async () => {
    const owner = await gw.createUser('alias-owner@example.com');
    await gw.grant(owner.userId, 5);
    // Cached before the change: the notification must reach it.
    expect((await chat(owner.key, 'team-model')).status).toBe(400);

    const set = await cli(
      'aliases',
      'set',
      '--org',
      owner.userId,
      '--name',
      'team-model',
      '--model',
      'openai/gpt-test',
    );
    expect(set.code, set.err).toBe(0);
    expect(set.out).toContain('team-model → openai/gpt-test');
    expect(await eventually(owner.key, 'team-model', 200)).toBe(200);
    expect(upstream.last.body.model).toBe('gpt-test-2026');

    const list = await cli('aliases', 'list', '--org', owner.userId, '--json');
    expect(JSON.parse(list.out).data).toMatchObject([{ name: 'team-model', model: 'openai/gpt-test' }]);

    const hides = await cli(
      'aliases',
      'set',
      '--org',
      owner.userId,
      '--name',
      'openai:x/y',
      '--model',
      'openai/gpt-test',
    );
    expect(hides.code).not.toBe(0);
    expect(hides.err).toContain('alias name');

    const removed = await cli('aliases', 'delete', '--org', owner.userId, '--name', 'team-model');
    expect(removed.code, removed.err).toBe(0);
    expect(await eventually(owner.key, 'team-model', 400)).toBe(400);

    const unknown = await cli('aliases', 'list', '--org', 'org_missing');
    expect(unknown.code).not.toBe(0);
  });
});
