// `modelgate guardrails ...`: the operator sets an organization's guardrails on the database a running gateway uses;
// the gateway hears of each change (its cached credentials, which carry the guardrails, are forgotten) and applies it.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { describeWithPostgres, openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { MockUpstream } from '../helpers/mock-upstream.js';
import { loadJson } from '../helpers/stream-replay.js';

describeWithPostgres('modelgate guardrails [postgres]', () => {
  let database: OpenTestDatabase;
  let gw: TestGateway;
  let upstream: MockUpstream;
  const cli = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      argv,
      {
        DATABASE_URL: database.url,
        LOG_LEVEL: 'silent',
        MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json',
        MODELGATE_GUARDRAIL_PATTERNS: '{"ticket_id":"TICKET-\\\\d+"}',
      },
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
        MODELGATE_GUARDRAIL_PATTERNS: '{"ticket_id":"TICKET-\\\\d+"}',
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

  /** What the upstream was sent for "Ticket TICKET-9 from a@example.com". */
  async function sent(key: string): Promise<string> {
    upstream.reply({ kind: 'json', body: loadJson('openai', 'text') });
    const res = await gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'openai/gpt-test',
        max_tokens: 20,
        stream: false,
        messages: [{ role: 'user', content: 'Ticket TICKET-9 from a@example.com' }],
      }),
    });
    expect(res.status).toBe(200);
    return upstream.last.body.messages[0].content;
  }

  /** The gateway hears the change from the database's notification: asks until the upstream is sent `expected`. */
  async function eventually(key: string, expected: string): Promise<string> {
    let last = '';
    for (let i = 0; i < 100 && last !== expected; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 50));
      last = await sent(key);
    }
    return last;
  }

  it('adds, lists, replaces from a file and removes guardrails; the running gateway applies each change', async () => {
    const owner = await gw.createUser('guardrail-owner@example.com');
    await gw.grant(owner.userId, 5);
    // Cached before the change: the notification must reach it.
    expect(await sent(owner.key)).toBe('Ticket TICKET-9 from a@example.com');

    const add = await cli(
      'guardrails',
      'add',
      '--org',
      owner.userId,
      '--name',
      'no-emails',
      '--stage',
      'input',
      '--action',
      'redact',
      '--detector',
      'email',
    );
    expect(add.code, add.err).toBe(0);
    expect(add.out).toContain('no-emails');
    expect(await eventually(owner.key, 'Ticket TICKET-9 from [EMAIL]')).toBe('Ticket TICKET-9 from [EMAIL]');

    const folder = await mkdtemp(path.join(tmpdir(), 'guardrails-cli-'));
    const file = path.join(folder, 'guardrails.json');
    await writeFile(
      file,
      JSON.stringify({
        data: [{ name: 'tickets', stage: 'input', action: 'redact', detector: 'regex', pattern: 'ticket_id' }],
      }),
    );
    const set = await cli('guardrails', 'set', '--org', owner.userId, '--file', file, '--json');
    expect(set.code, set.err).toBe(0);
    expect(JSON.parse(set.out).data).toEqual([
      { name: 'tickets', stage: 'input', action: 'redact', detector: 'regex', pattern: 'ticket_id' },
    ]);
    expect(await eventually(owner.key, 'Ticket [TICKET_ID] from a@example.com')).toBe(
      'Ticket [TICKET_ID] from a@example.com',
    );

    const list = await cli('guardrails', 'list', '--org', owner.userId);
    expect(list.out).toContain('regex:ticket_id');

    const unknown = await cli(
      'guardrails',
      'add',
      '--org',
      owner.userId,
      '--name',
      'x',
      '--stage',
      'input',
      '--action',
      'redact',
      '--detector',
      'regex',
      '--pattern',
      'nope',
    );
    expect(unknown.code).not.toBe(0);
    expect(unknown.err).toContain('has not defined');

    await writeFile(file, '{"data": "no"}');
    const bad = await cli('guardrails', 'set', '--org', owner.userId, '--file', file);
    expect(bad.code).toBe(2);

    const removed = await cli('guardrails', 'remove', '--org', owner.userId, '--name', 'tickets');
    expect(removed.code, removed.err).toBe(0);
    expect(removed.out).toContain('no guardrails');
    expect(await eventually(owner.key, 'Ticket TICKET-9 from a@example.com')).toBe(
      'Ticket TICKET-9 from a@example.com',
    );
    expect((await cli('guardrails', 'remove', '--org', owner.userId, '--name', 'tickets')).code).toBe(1);
  });
});
