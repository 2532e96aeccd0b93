// The operator CLI against a real database: PostgreSQL when one answers (fast), else an embedded PGlite folder.
import { describe, expect, it } from 'vitest';
import { useCliDatabase } from '../helpers/cli-database.js';
import { runCli } from '../../src/cli.js';

const cli = useCliDatabase();

describe('modelgate CLI', () => {
  it('migrates, creates users, keys, tokens and credits, and revokes keys', async () => {
    expect((await cli('migrate')).code).toBe(0);
    const user = await cli('users', 'create', '--email', 'Ops@Example.com');
    expect(user.code).toBe(0);
    expect(user.out).toContain('ops@example.com');
    expect((await cli('users', 'create', '--email', 'ops@example.com')).code).toBe(1);

    const created = await cli('keys', 'create', '--email', 'ops@example.com', '--name', 'ci', '--json');
    expect(created.code).toBe(0);
    const { key_id, key } = JSON.parse(created.out);
    expect(key).toMatch(/^mg-v1-/);
    expect(key_id).toMatch(/^key_/);

    const listed = await cli('keys', 'list', '--email', 'ops@example.com', '--json');
    expect(JSON.parse(listed.out)).toEqual([expect.objectContaining({ key_id, name: 'ci' })]);
    expect(listed.out).not.toContain(key);

    const token = await cli('tokens', 'create', '--email', 'ops@example.com', '--json');
    expect(JSON.parse(token.out).token).toMatch(/^mgt-v1-/);

    expect((await cli('credits', 'add', '--email', 'ops@example.com', '--usd', '12.50')).out).toContain('12.5 USD');
    expect((await cli('credits', 'add', '--email', 'ops@example.com', '--usd', '-2.5')).out).toContain('10 USD');
    const removeTooMuch = await cli('credits', 'add', '--email', 'ops@example.com', '--usd', '-100');
    expect(removeTooMuch.code).toBe(1);
    expect(JSON.parse((await cli('credits', 'show', '--email', 'ops@example.com', '--json')).out)).toMatchObject({
      balance: 10,
      total_credits: 10,
      total_usage: 0,
    });

    expect((await cli('keys', 'delete', '--email', 'ops@example.com', '--id', key_id)).code).toBe(0);
    expect((await cli('keys', 'delete', '--email', 'ops@example.com', '--id', key_id)).code).toBe(1);
    expect(JSON.parse((await cli('keys', 'list', '--email', 'ops@example.com', '--json')).out)).toEqual([]);
  });

  it('exits 2 with a clear message on usage and configuration errors', async () => {
    expect((await cli()).code).toBe(2);
    expect((await cli('frobnicate')).err).toContain('unknown command');
    const noEmail = await cli('keys', 'create');
    expect(noEmail.code).toBe(2);
    expect(noEmail.err).toContain('--email');
    expect((await cli('credits', 'add', '--email', 'a@b.c', '--usd', 'lots')).code).toBe(2);
    expect((await cli('keys', 'create', '--email', 'a@b.c', '--bogus')).code).toBe(2);
    const badConfig = await runCli(['migrate'], { PORT: 'eighty' }, { out: () => {}, err: () => {} });
    expect(badConfig).toBe(2);
  });
});
