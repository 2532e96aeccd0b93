// `modelgate presets ...`: the operator saves presets for an organization on the database a running gateway uses; the
// gateway hears of each change (its preset cache forgets the organization) and serves the new version.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { describeWithPostgres, openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { loadJson } from '../helpers/stream-replay.js';

describeWithPostgres('modelgate presets [postgres]', () => {
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

  it('creates versions, lists, shows and deletes a preset; the running gateway serves each change', async () => {
    const owner = await gw.createUser('preset-owner@example.com');
    await gw.grant(owner.userId, 5);
    // Loaded into memory before the change (having none): the notification must reach it.
    expect((await chat(owner.key, '@preset/team')).status).toBe(404);

    const file = join(mkdtempSync(join(tmpdir(), 'presets-cli-')), 'team.json');
    writeFileSync(file, JSON.stringify({ model: 'openai/gpt-test', system: 'First.', temperature: 0.5 }));
    const first = await cli('presets', 'create', '--org', owner.userId, '--slug', 'team', '--file', file);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toContain('@preset/team version 1');
    expect(await eventually(owner.key, '@preset/team', 200)).toBe(200);
    expect(upstream.last.body.messages[0]).toEqual({ role: 'system', content: 'First.' });
    expect(upstream.last.body.temperature).toBe(0.5);

    const second = await cli(
      'presets',
      'create',
      '--org',
      owner.userId,
      '--slug',
      'team',
      '--file',
      file,
      '--system',
      'Second.',
      '--json',
    );
    expect(second.code, second.err).toBe(0);
    expect(JSON.parse(second.out)).toMatchObject({
      slug: 'team',
      version: 2,
      preset: { system: 'Second.', temperature: 0.5 },
    });
    let system = '';
    for (let i = 0; i < 100 && system !== 'Second.'; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 50));
      upstream.reply({ kind: 'json', body: loadJson('openai', 'text') });
      expect((await chat(owner.key, '@preset/team')).status).toBe(200);
      system = upstream.last.body.messages[0].content;
    }
    expect(system).toBe('Second.');

    const list = await cli('presets', 'list', '--org', owner.userId, '--json');
    expect(JSON.parse(list.out).data).toMatchObject([{ slug: 'team', version: 2 }]);
    const shown = await cli('presets', 'show', '--org', owner.userId, '--slug', 'team', '--json');
    expect(JSON.parse(shown.out).versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    const v1 = await cli('presets', 'show', '--org', owner.userId, '--slug', 'team', '--version', '1', '--json');
    expect(JSON.parse(v1.out).preset.system).toBe('First.');

    const bad = await cli('presets', 'create', '--org', owner.userId, '--slug', 'x', '--model', 'openai/none');
    expect(bad.code).not.toBe(0);
    expect(bad.err).toContain('not a catalog model');
    const notNumber = await cli('presets', 'create', '--org', owner.userId, '--slug', 'x', '--temperature', 'warm');
    expect(notNumber.code).toBe(2);

    const removed = await cli('presets', 'delete', '--org', owner.userId, '--slug', 'team');
    expect(removed.code, removed.err).toBe(0);
    expect(await eventually(owner.key, '@preset/team', 404)).toBe(404);
  });
});
