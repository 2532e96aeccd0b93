// `modelgate orgs ...`: the operator creates an organization, adds and re-roles members, lists them, and removes
// one, on the database a running gateway uses; the removed member's key of the organization stops working at once.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { describeWithPostgres, openTestDatabase, type OpenTestDatabase } from '../helpers/databases.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

describeWithPostgres('modelgate orgs [postgres]', () => {
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

  it('creates an organization and manages its members', async () => {
    const owner = await gw.createUser('orgs-owner@example.com');
    const dev = await gw.createUser('orgs-dev@example.com');
    const created = await cli('orgs', 'create', '--name', 'Acme', '--owner', 'orgs-owner@example.com', '--json');
    expect(created.code, created.err).toBe(0);
    const { id } = JSON.parse(created.out);
    expect(id).toMatch(/^org_/);

    const added = await cli('orgs', 'add-member', '--id', id, '--email', 'orgs-dev@example.com', '--role', 'admin');
    expect(added.code, added.err).toBe(0);
    const members = JSON.parse((await cli('orgs', 'members', '--id', id, '--json')).out);
    expect(members).toEqual([
      { user_id: owner.userId, email: 'orgs-owner@example.com', role: 'owner' },
      { user_id: dev.userId, email: 'orgs-dev@example.com', role: 'admin' },
    ]);
    const listed = JSON.parse((await cli('orgs', 'list', '--email', 'orgs-dev@example.com', '--json')).out);
    expect(listed.map((o: any) => [o.id, o.role])).toEqual([
      [dev.userId, 'owner'],
      [id, 'admin'],
    ]);

    // The member's key of the organization, made over HTTP by the owner, stops working once it is removed.
    const token = await gw.createToken(owner.userId);
    const res = await gw.fetch('/api/v1/api-keys', {
      method: 'POST',
      key: token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ organization_id: id, member_id: dev.userId }),
    });
    const key = ((await res.json()) as any).key as string;
    expect((await gw.fetch('/api/v1/key', { key })).status).toBe(200);
    const removed = await cli('orgs', 'remove-member', '--id', id, '--email', 'orgs-dev@example.com');
    expect(removed.code, removed.err).toBe(0);
    await expect.poll(async () => (await gw.fetch('/api/v1/key', { key })).status).toBe(401);

    // Refusals are the command's failures: the last owner, an unknown organization, a role that does not exist.
    const last = await cli('orgs', 'remove-member', '--id', id, '--email', 'orgs-owner@example.com');
    expect(last.code).toBe(1);
    expect(last.err).toMatch(/at least one owner/);
    expect((await cli('orgs', 'members', '--id', 'org_nothing')).code).toBe(1);
    expect(
      (await cli('orgs', 'add-member', '--id', id, '--email', 'orgs-dev@example.com', '--role', 'boss')).code,
    ).toBe(2);
  });

  it('lists and revokes pending invitations', async () => {
    const owner = await gw.createUser('orgs-inviter@example.com');
    const { id } = JSON.parse((await cli('orgs', 'create', '--name', 'Inv', '--owner', owner.email, '--json')).out);
    const token = await gw.createToken(owner.userId);
    const res = await gw.fetch(`/api/v1/organizations/${id}/invitations`, {
      method: 'POST',
      key: token,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ role: 'admin' }),
    });
    const invitation = (await res.json()) as any;
    const listed = await cli('orgs', 'invitations', 'list', '--id', id, '--json');
    expect(listed.code, listed.err).toBe(0);
    expect(JSON.parse(listed.out)).toMatchObject([
      { invitation_id: invitation.invitation_id, role: 'admin', created_by: owner.userId },
    ]);
    expect(listed.out).not.toContain(invitation.token);
    const human = await cli('orgs', 'invitations', 'list', '--id', id);
    expect(human.out).toContain(invitation.invitation_id);

    const revoked = await cli('orgs', 'invitations', 'revoke', '--id', id, '--invitation', invitation.invitation_id);
    expect(revoked.code, revoked.err).toBe(0);
    expect(JSON.parse((await cli('orgs', 'invitations', 'list', '--id', id, '--json')).out)).toEqual([]);
    const other = await gw.createUser('orgs-invitee@example.com');
    const accept = await gw.fetch(`/api/v1/invitations/${invitation.token}/accept`, {
      method: 'POST',
      key: await gw.createToken(other.userId),
    });
    expect(accept.status).toBe(404);
    // Revoking it again fails; a missing --invitation or an unknown subcommand is a usage error.
    expect(
      (await cli('orgs', 'invitations', 'revoke', '--id', id, '--invitation', invitation.invitation_id)).code,
    ).toBe(1);
    expect((await cli('orgs', 'invitations', 'revoke', '--id', id)).code).toBe(2);
    expect((await cli('orgs', 'invitations', 'show', '--id', id)).code).toBe(2);
  });

  it('adds credits and grants the pass of an organization with --org', async () => {
    const owner = await gw.createUser('orgs-payer@example.com');
    const { id } = JSON.parse((await cli('orgs', 'create', '--name', 'Pay', '--owner', owner.email, '--json')).out);
    const added = await cli('credits', 'add', '--org', id, '--usd', '3', '--json');
    expect(added.code, added.err).toBe(0);
    expect(JSON.parse(added.out)).toEqual({ organization_id: id, added: 3, balance: 3 });
    const shown = await cli('credits', 'show', '--org', id);
    expect(shown.out).toContain(`credits of organization ${id} (Pay): balance 3 USD`);
    // The user's personal organization keeps its own account.
    expect(JSON.parse((await cli('credits', 'show', '--email', owner.email, '--json')).out).balance).toBe(0);
    const granted = await cli('pass', 'grant', '--org', id, '--json');
    expect(granted.code, granted.err).toBe(0);
    expect(JSON.parse(granted.out)).toMatchObject({ organization_id: id });
    expect(JSON.parse((await cli('pass', 'show', '--org', id, '--json')).out)).toMatchObject({ active: true });
    // Exactly one of --email and --org; an unknown organization fails.
    expect((await cli('credits', 'add', '--org', id, '--email', owner.email, '--usd', '1')).code).toBe(2);
    expect((await cli('credits', 'add', '--org', 'org_missing', '--usd', '1')).code).toBe(1);
    expect((await cli('pass', 'revoke', '--org', 'org_missing')).code).toBe(1);
  });
});
