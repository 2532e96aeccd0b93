// `modelgate responses purge`: the operator deletes a user's stored responses in every organization they made them in
// (`--email`), or every stored response of one organization (`--org`); nobody else's are touched.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { insertStoredResponse } from '../../src/repositories/stored-responses.js';
import { describeWithPostgres, openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';

describeWithPostgres('modelgate responses purge [postgres]', () => {
  let database: OpenTestDatabase;
  const cli = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      argv,
      { DATABASE_URL: database.url ?? '', LOG_LEVEL: 'silent' },
      { out: (l) => out.push(l), err: (l) => err.push(l) },
    );
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  const store = (id: string, organizationId: string, memberUserId: string) =>
    insertStoredResponse(database.db, {
      id,
      organization_id: organizationId,
      member_user_id: memberUserId,
      api_key_id: null,
      model: 'openai/gpt-5.5',
      previous_response_id: null,
      root_id: id,
      input_items: JSON.stringify([{ type: 'message', role: 'user', content: 'hi' }]),
      response: JSON.stringify({ id, object: 'response', output: [] }),
      expires_at: new Date(Date.now() + 86_400_000),
    });
  const remaining = async () =>
    (await database.db.selectFrom('stored_responses').select('id').orderBy('id').execute()).map((r) => r.id);

  beforeAll(async () => {
    database = await openTestDatabase('postgres', { migrated: true });
  });
  afterAll(async () => {
    await database?.close();
  });

  it("purges a user's stored responses in every organization, then an organization's", async () => {
    const ada = JSON.parse((await cli('users', 'create', '--email', 'ada@example.com', '--json')).out)
      .user_id as string;
    const bob = JSON.parse((await cli('users', 'create', '--email', 'bob@example.com', '--json')).out)
      .user_id as string;
    const created = await cli('orgs', 'create', '--name', 'Acme', '--owner', 'ada@example.com', '--json');
    const acme = JSON.parse(created.out).id as string;
    await store('resp_ada_own', ada, ada);
    await store('resp_ada_acme', acme, ada);
    await store('resp_bob_acme', acme, bob);
    await store('resp_bob_own', bob, bob);

    const byUser = await cli('responses', 'purge', '--email', 'ada@example.com', '--json');
    expect(byUser.code, byUser.err).toBe(0);
    expect(JSON.parse(byUser.out)).toEqual({ email: 'ada@example.com', deleted: 2 });
    expect(await remaining()).toEqual(['resp_bob_acme', 'resp_bob_own']);

    const byOrg = await cli('responses', 'purge', '--org', acme);
    expect(byOrg.code, byOrg.err).toBe(0);
    expect(byOrg.out).toBe(`deleted 1 stored responses of organization ${acme} (Acme)`);
    expect(await remaining()).toEqual(['resp_bob_own']);
  });

  it('refuses what names nobody, touching nothing', async () => {
    const both = await cli('responses', 'purge', '--email', 'bob@example.com', '--org', 'org_x');
    expect(both.code).toBe(2);
    expect(both.err).toContain('not both');
    expect((await cli('responses', 'purge')).code).toBe(2);
    expect((await cli('responses', 'prune', '--email', 'bob@example.com')).code).toBe(2);
    const unknown = await cli('responses', 'purge', '--email', 'nobody@example.com');
    expect(unknown.code).not.toBe(0);
    expect(unknown.err).toContain('nobody@example.com');
    expect(await remaining()).toEqual(['resp_bob_own']);
  });
});
