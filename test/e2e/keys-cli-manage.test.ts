// `modelgate keys create --manage`: the operator's way to hand an account a management key. Made by the CLI on the
// database a running gateway uses, the key then manages that account's keys over HTTP and calls no model.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { describeWithPostgres, openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

describeWithPostgres('modelgate keys create --manage [postgres]', () => {
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
    gw = await startTestGateway({ database, env: { MODELGATE_CATALOG: 'test/fixtures/catalog/test-catalog.json' } });
  });
  afterAll(async () => {
    await gw?.close();
    await database?.close();
  });

  it('creates a management key (shown once) that manages the account over HTTP and calls no model', async () => {
    const owner = await gw.createUser('ops-manage@example.com');
    const created = await cli(
      'keys',
      'create',
      '--email',
      'ops-manage@example.com',
      '--name',
      'provisioner',
      '--manage',
      '--json',
    );
    expect(created.code, created.err).toBe(0);
    const { key_id: keyId, key, kind } = JSON.parse(created.out);
    expect(kind).toBe('management');
    expect(key).toMatch(/^mgm-v1-[A-Za-z0-9_-]{32}$/);

    const listed = JSON.parse((await cli('keys', 'list', '--email', 'ops-manage@example.com', '--json')).out) as any[];
    expect(listed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key_id: keyId, kind: 'management', name: 'provisioner' }),
        expect.objectContaining({ key_id: owner.keyId, kind: 'inference' }),
      ]),
    );
    expect(JSON.stringify(listed)).not.toContain(key);
    const text = await cli('keys', 'create', '--email', 'ops-manage@example.com', '--manage');
    expect(text.out).toContain('management key');

    const post = await gw.fetch('/api/v1/api-keys', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ci', limit: 1 }),
    });
    expect(post.status).toBe(201);
    expect(((await post.json()) as any).kind).toBe('inference');
    const chat = await gw.fetch('/api/v1/chat/completions', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-test', messages: [{ role: 'user', content: 'hi' }], stream: false }),
    });
    expect(chat.status).toBe(403);
    expect(((await chat.json()) as any).error.metadata.reason).toBe('inference_credential_required');

    // Without --manage: an inference key, which may not create keys.
    const plain = JSON.parse((await cli('keys', 'create', '--email', 'ops-manage@example.com', '--json')).out);
    expect(plain.kind).toBe('inference');
    expect(plain.key).toMatch(/^mg-v1-/);
    expect(
      (
        await gw.fetch('/api/v1/api-keys', {
          method: 'POST',
          key: plain.key,
          headers: { 'content-type': 'application/json' },
          body: '{}',
        })
      ).status,
    ).toBe(403);
  });
});
