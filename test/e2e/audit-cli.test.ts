// `modelgate audit`: the operator reads the audit log from the console, filtered and paged; its own changes are
// recorded as the console's.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { describeWithPostgres, openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';

describeWithPostgres('modelgate audit [postgres]', () => {
  let database: OpenTestDatabase;
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
  });
  afterAll(async () => {
    await database?.close();
  });

  it("lists the console's changes, filters by organization and action, and pages", async () => {
    expect((await cli('users', 'create', '--email', 'audit-owner@example.com')).code).toBe(0);
    const created = await cli('orgs', 'create', '--name', 'Acme', '--owner', 'audit-owner@example.com', '--json');
    const { id } = JSON.parse(created.out);
    expect((await cli('credits', 'add', '--email', 'audit-owner@example.com', '--usd', '5')).code).toBe(0);

    const all = await cli('audit', '--json');
    expect(all.code, all.err).toBe(0);
    const entries = JSON.parse(all.out).data as { action: string; actor: unknown; organization_id: string }[];
    expect(entries.map((e) => e.action)).toEqual(['credits.granted', 'organization.created', 'user.created']);
    expect(entries.every((e) => JSON.stringify(e.actor) === '{"kind":"cli","id":"console"}')).toBe(true);

    const org = JSON.parse((await cli('audit', '--org', id, '--json')).out);
    expect(org.data.map((e: { action: string }) => e.action)).toEqual(['organization.created']);

    const first = JSON.parse((await cli('audit', '--limit', '1', '--json')).out);
    expect(first.data).toHaveLength(1);
    const second = await cli('audit', '--limit', '1', '--cursor', first.next_cursor);
    expect(second.out).toContain('organization.created');
    expect(second.out).toContain('cli console');

    expect((await cli('audit', '--limit', '0')).code).toBe(2);
  });
});
