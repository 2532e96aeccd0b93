// Issue 18 §1: with the embedded database, `modelgate serve` owns the data folder and every CLI command goes through it,
// so the running gateway sees each change at once and a restart loses nothing. The gateway runs in a process of its
// own, as an operator runs it; commands too where the process matters (exit codes, a lock taken over from a killed
// gateway), the others in this process through runCli (the same code, seconds faster than starting tsx each time).
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { cliEnv, runCliProcess, startServeProcess, type ServeProcess } from '../helpers/cli-process.js';
import { seedMigratedDataFolder } from '../helpers/pglite-snapshots.js';

const work = mkdtempSync(path.join(tmpdir(), 'modelgate-served-'));
const running: ServeProcess[] = [];
afterAll(async () => {
  for (const gw of running) if (gw.child.exitCode === null) gw.child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

async function serve(dataDir: string): Promise<ServeProcess> {
  const gw = await startServeProcess(cliEnv(dataDir));
  running.push(gw);
  return gw;
}

function get(gw: ServeProcess, route: string, bearer: string) {
  return fetch(`${gw.url}/api/v1${route}`, { headers: { authorization: `Bearer ${bearer}` } });
}

/** `modelgate <args>` in this process; expects exit code 0. */
async function ok(args: string[], dataDir: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, cliEnv(dataDir, { LOG_LEVEL: 'silent' }), {
    out: (l) => out.push(l),
    err: (l) => err.push(l),
  });
  expect(code, `modelgate ${args.join(' ')}\n${err.join('\n')}`).toBe(0);
  return { out: out.join('\n'), err: err.join('\n') };
}

const json = async (args: string[], dataDir: string) => JSON.parse((await ok([...args, '--json'], dataDir)).out);

describe('a served data folder', () => {
  it('every README CLI command reaches the running gateway at once, a second serve is refused, and all of it survives a restart', {
    timeout: 300_000,
  }, async () => {
    const dir = path.join(work, 'readme');
    let gw = await serve(dir);
    // Hints name the command as it runs from the checkout (no bare `modelgate` on PATH).
    expect(gw.output()).toContain('Another key for it, any time: npx modelgate keys create --email dev@localhost');
    const lock = JSON.parse(readFileSync(path.join(dir, 'modelgate.lock'), 'utf8'));
    expect(lock).toMatchObject({ pid: gw.child.pid, role: 'serve', socket: path.join(dir, '.s.PGSQL.5432') });
    expect(statSync(lock.socket).isSocket()).toBe(true);
    const email = 'ana@example.com';

    expect((await runCliProcess(['users', 'create', '--email', email], cliEnv(dir))).code).toBe(0);
    const first = await json(['keys', 'create', '--email', email, '--name', 'ci'], dir);
    // The new key authenticates at once: the gateway reads the same database the command wrote.
    const fresh = await get(gw, '/credits', first.key);
    expect(fresh.status).toBe(200);
    expect((await fresh.json()).data).toEqual({ total_credits: 0, total_usage: 0 });

    expect(await json(['keys', 'list', '--email', email], dir)).toEqual([
      expect.objectContaining({ key_id: first.key_id, name: 'ci' }),
    ]);
    // The gateway's development user and this one, read through the running gateway.
    expect((await json(['users', 'list'], dir)).map((u: { email: string }) => u.email)).toEqual([
      email,
      'dev@localhost',
    ]);
    expect(
      await json(
        [
          'keys',
          'limits',
          '--email',
          email,
          '--id',
          first.key_id,
          '--rpm',
          '60',
          '--tpm',
          '100000',
          '--free-per-day',
          '50',
        ],
        dir,
      ),
    ).toEqual({ key_id: first.key_id, rpm: 60, tpm: 100000, free_per_day: 50 });
    const key = await (await get(gw, '/key', first.key)).json();
    expect(key.data).toMatchObject({
      rate_limit: { requests_per_minute: 60, tokens_per_minute: 100000 },
      free_requests_per_day: 50,
    });

    const token = await json(['tokens', 'create', '--email', email], dir);
    expect((await get(gw, '/credits', token.token)).status).toBe(200);

    await ok(['credits', 'add', '--email', email, '--usd', '20'], dir);
    expect((await (await get(gw, '/credits', first.key)).json()).data).toEqual({ total_credits: 20, total_usage: 0 });
    expect(await json(['credits', 'show', '--email', email], dir)).toMatchObject({ balance: 20, total_credits: 20 });

    const passActive = async () =>
      ((await (await get(gw, '/pass/usage', first.key)).json()) as { active: boolean }).active;
    expect(await passActive()).toBe(false);
    await ok(['pass', 'grant', '--email', email, '--months', '1'], dir);
    expect(await passActive()).toBe(true);
    expect(await json(['pass', 'show', '--email', email], dir)).toMatchObject({
      active: true,
      periods: [expect.anything()],
    });
    await ok(['pass', 'revoke', '--email', email], dir);
    expect(await passActive()).toBe(false);
    await ok(['pass', 'grant', '--email', email, '--months', '2'], dir);

    // The first key was just used, so the gateway caches it: the deletion must reach that cache (NOTIFY) at once.
    const second = await json(['keys', 'create', '--email', email, '--name', 'second'], dir);
    await ok(['keys', 'delete', '--email', email, '--id', first.key_id], dir);
    expect((await get(gw, '/credits', first.key)).status).toBe(401);
    expect((await get(gw, '/credits', second.key)).status).toBe(200);
    await ok(['migrate'], dir);

    // A second gateway on the served folder is refused before it touches anything; the first one serves on.
    const files = readdirSync(dir).sort();
    const lockText = readFileSync(path.join(dir, 'modelgate.lock'), 'utf8');
    const twice = await runCliProcess(['serve'], cliEnv(dir, { PORT: '0' }));
    expect(twice.code).toBe(2);
    expect(twice.err).toContain(`data folder ${dir} is already served by a running gateway (pid ${gw.child.pid}`);
    expect(readdirSync(dir).sort()).toEqual(files);
    expect(readFileSync(path.join(dir, 'modelgate.lock'), 'utf8')).toBe(lockText);
    expect((await get(gw, '/credits', second.key)).status).toBe(200);

    expect(await gw.stop()).toBe(0);
    expect(existsSync(path.join(dir, 'modelgate.lock'))).toBe(false);
    expect(existsSync(lock.socket)).toBe(false);

    gw = await serve(dir);
    // A restart creates no development key and says how to get one.
    expect(gw.output()).toContain('`npx modelgate keys create --email dev@localhost`');
    expect(gw.output()).not.toContain('Try: curl');
    expect((await get(gw, '/credits', first.key)).status).toBe(401);
    expect((await (await get(gw, '/credits', second.key)).json()).data).toEqual({ total_credits: 20, total_usage: 0 });
    expect((await get(gw, '/credits', token.token)).status).toBe(200);
    expect(((await (await get(gw, '/pass/usage', second.key)).json()) as { active: boolean }).active).toBe(true);
    expect(await json(['pass', 'show', '--email', email], dir)).toMatchObject({
      active: true,
      periods: [expect.anything(), expect.anything()],
    });
    expect((await json(['keys', 'list', '--email', email], dir)).map((k: { key_id: string }) => k.key_id)).toEqual([
      second.key_id,
    ]);
    expect(await gw.stop()).toBe(0);
  });

  it('takes over the lock of a gateway that was killed: the command runs, then a new gateway serves everything', {
    timeout: 300_000,
  }, async () => {
    const dir = path.join(work, 'killed');
    // Seeded as a first start leaves it (the first test starts on an empty folder): the kill is what this one is about.
    await seedMigratedDataFolder(dir);
    const gw = await serve(dir);
    await ok(['users', 'create', '--email', 'bo@example.com'], dir);
    gw.child.kill('SIGKILL');
    await gw.exited;
    // kill -9 leaves the lock of a process that is gone.
    expect(JSON.parse(readFileSync(path.join(dir, 'modelgate.lock'), 'utf8')).pid).toBe(gw.child.pid);

    const added = await runCliProcess(['credits', 'add', '--email', 'bo@example.com', '--usd', '3'], cliEnv(dir));
    expect(added).toMatchObject({ code: 0, out: 'balance of bo@example.com: 3 USD' });
    expect(existsSync(path.join(dir, 'modelgate.lock'))).toBe(false);

    const next = await serve(dir);
    const created = await json(['keys', 'create', '--email', 'bo@example.com'], dir);
    expect((await (await get(next, '/credits', created.key)).json()).data).toEqual({
      total_credits: 3,
      total_usage: 0,
    });
    expect(await next.stop()).toBe(0);
  });
});
