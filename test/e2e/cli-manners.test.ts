// Issue 18 §6: every command and subcommand answers --help/-h with its usage and exit 0 and does nothing else;
// --version; one output rule (text by default, JSON with --json); an unknown user is an error for every command.
// Issue 36 §3: a misspelt option, subcommand or command names the closest valid one (never Node's parser text);
// under --json every error is one JSON object on stderr; no internal names in messages; hints say `npx modelgate`.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli.js';
import { useCliDatabase } from '../helpers/cli-database.js';
import { freePort, runCliProcess } from '../helpers/cli-process.js';

const cli = useCliDatabase();
const work = mkdtempSync(path.join(tmpdir(), 'modelgate-manners-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const FORMS = [
  ['serve'],
  ['migrate'],
  ['users'],
  ['users', 'create'],
  ['users', 'list'],
  ['keys'],
  ['keys', 'create'],
  ['keys', 'list'],
  ['keys', 'delete'],
  ['keys', 'limits'],
  ['tokens'],
  ['tokens', 'create'],
  ['credits'],
  ['credits', 'add'],
  ['credits', 'show'],
  ['pass'],
  ['pass', 'grant'],
  ['pass', 'revoke'],
  ['pass', 'show'],
  ['generations'],
  ['generations', 'prune'],
  ['conformance'],
];

async function run(argv: string[], env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

describe('modelgate --help', () => {
  it('every command and subcommand prints its usage with -h and --help, exit 0, and starts, opens or creates nothing', async () => {
    const dataDir = path.join(work, 'never-created');
    const port = await freePort();
    const env = { MODELGATE_DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'silent' };
    for (const form of FORMS) {
      for (const flag of ['--help', '-h']) {
        const res = await run([...form, flag], env);
        expect(res.code, `${form.join(' ')} ${flag}: ${res.err}`).toBe(0);
        expect(res.out).toMatch(/^usage:\n/);
        expect(res.out).toContain(`modelgate ${form.join(' ')}`);
        expect(res.err).toBe('');
      }
    }
    // Help wins wherever it stands, also after options that would otherwise be checked.
    expect((await run(['keys', 'create', '--email', 'not-an-address', '--help'], env)).code).toBe(0);
    expect((await run(['serve', '--port', '1', '-h'], env)).code).toBe(0);
    expect(existsSync(dataDir)).toBe(false);
    expect(await refused(port)).toBe(true);
  });

  it('a subcommand shows its own usage; the command, all of its forms; `help <command>` the same', async () => {
    const limits = await run(['keys', 'limits', '--help'], {});
    expect(limits.out).toContain('keys limits --email E --id KEY_ID');
    expect(limits.out).not.toContain('keys create');
    const keys = await run(['keys', '--help'], {});
    for (const sub of ['create', 'list', 'delete', 'limits']) expect(keys.out).toContain(`modelgate keys ${sub} `);
    expect((await run(['help', 'keys'], {})).out).toBe(keys.out);
    const general = await run(['--help'], {});
    expect(general.code).toBe(0);
    for (const form of FORMS) expect(general.out).toContain(`modelgate ${form.join(' ')}`);
    expect((await run(['serve', '--help'], {})).out).toContain('modelgate.lock');
  });

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(await run(['--version'], {})).toEqual({ code: 0, out: version, err: '' });
    expect(await runCliProcess(['--version'], { PATH: process.env.PATH })).toEqual({ code: 0, out: version, err: '' });
  }, 60_000);

  it('a missing or unknown subcommand is a usage error that points to --help', async () => {
    const users = await run(['users'], {});
    expect(users.code).toBe(2);
    expect(users.err).toContain('see npx modelgate users --help');
    expect((await run(['keys', 'frob', '--email', 'a@b.c'], {})).code).toBe(2);
  });
});

describe('modelgate output and unknown users', () => {
  const notJson = (text: string) => expect(() => JSON.parse(text)).toThrow();

  it('prints text by default and one JSON document with --json, for every command', async () => {
    const email = 'manners@example.com';
    const both = async (...argv: string[]) => {
      const text = await cli(...argv);
      expect(text.code, `${argv.join(' ')}: ${text.err}`).toBe(0);
      notJson(text.out);
      const json = await cli(...argv, '--json');
      expect(json.code, `${argv.join(' ')} --json: ${json.err}`).toBe(0);
      return { text: text.out, json: JSON.parse(json.out) };
    };
    await both('migrate');
    expect((await cli('users', 'create', '--email', email)).out).toContain(`created user ${email}`);
    expect(JSON.parse((await cli('users', 'create', '--email', 'json@example.com', '--json')).out)).toMatchObject({
      email: 'json@example.com',
    });
    const key = await both('keys', 'create', '--email', email);
    expect(key.json.key).toMatch(/^mg-v1-/);
    const keyId: string = key.json.key_id;
    const keyList = await both('keys', 'list', '--email', email);
    expect(keyList.json).toHaveLength(2);
    // A header names the columns; each key is one row under it.
    const [header, ...keyRows] = keyList.text.split('\n');
    expect(header!.split(/ {2,}/)).toEqual(['KEY ID', 'KIND', 'PREFIX', 'NAME', 'CREATED']);
    expect(keyRows).toHaveLength(2);
    expect(keyRows.some((row) => row.startsWith(`${keyId} `) && row.includes('inference'))).toBe(true);
    const users = await both('users', 'list');
    const [userHeader, ...userRows] = users.text.split('\n');
    expect(userHeader!.split(/ {2,}/)).toEqual(['USER ID', 'EMAIL', 'CREATED']);
    expect(userRows.map((row) => row.split(/ {2,}/)[1])).toEqual(['json@example.com', email]);
    expect(users.json.map((u: { email: string }) => u.email)).toEqual(['json@example.com', email]);
    expect(users.json[0]).toEqual({
      user_id: expect.stringMatching(/^usr_/),
      email: 'json@example.com',
      created_at: expect.any(String),
    });
    const limits = await both('keys', 'limits', '--email', email, '--id', keyId, '--rpm', '60');
    expect(limits.text).toBe(`limits of key ${keyId}: rpm 60, tpm default, free requests per day default`);
    expect(limits.json).toEqual({ key_id: keyId, rpm: 60, tpm: 'default', free_per_day: 'default' });
    expect((await both('tokens', 'create', '--email', email)).json.token).toMatch(/^mgt-v1-/);
    const added = await both('credits', 'add', '--email', email, '--usd', '2.5');
    expect(added.json).toEqual({ email, added: 2.5, balance: 5 });
    const credits = await both('credits', 'show', '--email', email);
    expect(credits.text).toContain('balance 5 USD');
    expect(credits.json).toEqual({ balance: 5, reserved: 0, total_credits: 5, total_usage: 0 });
    // Each run adds a month: the JSON lists the period that run added.
    expect((await both('pass', 'grant', '--email', email)).json.periods).toHaveLength(1);
    const pass = await both('pass', 'show', '--email', email);
    expect(pass.text).toContain(`subscription of ${email}: active`);
    expect(pass.text).toMatch(/5 hours +0 of 2 used/);
    expect(pass.json).toMatchObject({ email, active: true });
    expect(JSON.parse((await cli('pass', 'revoke', '--email', email, '--json')).out)).toEqual({ email, revoked: 2 });
    expect((await cli('pass', 'revoke', '--email', email)).out).toBe(`revoked 0 subscription period(s) of ${email}`);
    expect((await both('pass', 'show', '--email', email)).text).toBe(`subscription of ${email}: not active`);
    const second = JSON.parse((await cli('keys', 'create', '--email', email, '--json')).out).key_id;
    expect(JSON.parse((await cli('keys', 'delete', '--email', email, '--id', second, '--json')).out)).toEqual({
      key_id: second,
      deleted: true,
    });
    expect((await cli('keys', 'delete', '--email', email, '--id', keyId)).out).toBe(`deleted key ${keyId}`);
    expect(JSON.parse((await cli('keys', 'list', '--email', email, '--json')).out)).toHaveLength(1);
    expect((await cli('keys', 'list', '--email', 'json@example.com')).out).toBe('no active keys for json@example.com');
    expect((await cli('keys', 'list', '--email', 'json@example.com', '--json')).out).toBe('[]');
  });

  it('an unknown user is an error (exit 1) for every command that names one, and no command creates it', async () => {
    const nobody = 'nobody@example.com';
    const commands = [
      ['keys', 'create'],
      ['keys', 'list'],
      ['keys', 'delete', '--id', 'key_x'],
      ['keys', 'limits', '--id', 'key_x'],
      ['tokens', 'create'],
      ['credits', 'add', '--usd', '5'],
      ['credits', 'show'],
      ['pass', 'grant'],
      ['pass', 'revoke'],
      ['pass', 'show'],
    ];
    for (const [command, sub, ...rest] of commands) {
      for (const json of [[], ['--json']]) {
        const res = await cli(command, sub, '--email', nobody, ...rest, ...json);
        expect(res.code, `${command} ${sub}`).toBe(1);
        const message = `no user ${nobody}: create it first with "npx modelgate users create --email ${nobody}"`;
        expect(res.err).toBe(
          json.length ? JSON.stringify({ error: { type: 'failed', message, exit_code: 1 } }) : message,
        );
        expect(res.out).toBe('');
      }
    }
    expect((await cli('users', 'create', '--email', nobody)).code).toBe(0);
    expect((await cli('users', 'create', '--email', nobody)).err).toBe(`user ${nobody} already exists`);
  });
});

describe('modelgate usage errors', () => {
  /** Node's own parser wording, which names its workings instead of what to type. */
  const NODE_TEXT = /To specify a positional|argument is ambiguous|ERR_PARSE_ARGS|Unexpected argument|Unknown option '/;

  it('a misspelt option names the closest valid one; a far-off one lists the valid options', async () => {
    const misspelt = await run(['users', 'create', '--emial', 'ana@example.com'], {});
    expect(misspelt.code).toBe(2);
    expect(misspelt.err).toBe('unknown option --emial; did you mean --email?\n(see npx modelgate users --help)');
    expect(misspelt.out).toBe('');
    expect((await run(['keys', 'create', '--email', 'a@b.c', '--mange'], {})).err).toContain('did you mean --manage?');
    expect((await run(['keys', 'limits', '--email', 'a@b.c', '--id', 'k', '--free-per-dya', '3'], {})).err).toContain(
      'did you mean --free-per-day?',
    );
    expect((await run(['generations', 'prune', '--older-than', '3'], {})).err).toContain(
      'did you mean --older-than-days?',
    );
    const far = await run(['credits', 'show', '--email', 'a@b.c', '--zzzzzz'], {});
    expect(far.err).toContain('unknown option --zzzzzz; valid options: --email, --org, --usd, --note, --json');
    for (const argv of [
      ['users', 'create', '--email'],
      ['keys', 'create', '--email', '--manage'],
      ['keys', 'list', '--email', 'a@b.c', '--manage=yes'],
      ['users', 'create', 'ana@example.com'],
      ['serve', '--wrokers', '2'],
      ['conformance', '--base-ulr', 'http://x'],
      ['pass', 'grant', '-e', 'a@b.c'],
    ]) {
      const res = await run(argv, {});
      expect(res.code, argv.join(' ')).toBe(2);
      expect(res.err, argv.join(' ')).not.toMatch(NODE_TEXT);
      expect(res.err, argv.join(' ')).toMatch(/\(see npx modelgate \S+ --help\)$/);
    }
    expect((await run(['users', 'create', '--email'], {})).err).toContain('--email needs a value');
    expect((await run(['keys', 'list', '--email', 'a@b.c', '--manage=yes'], {})).err).toContain(
      '--manage takes no value',
    );
    expect((await run(['users', 'create', 'ana@example.com'], {})).err).toContain(
      'unexpected argument "ana@example.com"',
    );
  });

  it('a misspelt command or subcommand names the closest valid one', async () => {
    const command = await run(['kyes', 'list'], {});
    expect(command.code).toBe(2);
    expect(command.err).toBe('unknown command "kyes"; did you mean npx modelgate keys?\n(see npx modelgate --help)');
    expect((await run(['frobnicate'], {})).err).toContain('the commands are serve, migrate, users, keys');
    const sub = await run(['keys', 'craete', '--email', 'a@b.c'], {});
    expect(sub.code).toBe(2);
    expect(sub.err).toContain('npx modelgate keys has no subcommand "craete"; did you mean npx modelgate keys create?');
  });

  it('a bad amount is worded for the operator, without internal names', async () => {
    for (const usd of ['lots', '1,5', '$5', 'NaN']) {
      const res = await run(['credits', 'add', '--email', 'a@b.c', '--usd', usd], {});
      expect(res.code, usd).toBe(2);
      expect(res.err).toContain(
        `--usd must be a USD amount like 5 or 0.25 (negative, like -2, removes credit), got "${usd}"`,
      );
      expect(res.err).not.toMatch(/usdToNanos|RangeError|nanos/i);
    }
    expect((await run(['credits', 'add', '--email', 'a@b.c', '--usd', '1e30'], {})).err).toContain(
      '--usd must be between -1000000000 and 1000000000',
    );
  });

  it('under --json every error is exactly one JSON object on stderr, nothing on stdout', async () => {
    const cases: Array<[string[], NodeJS.ProcessEnv, string, number]> = [
      [['users', 'create', '--emial', 'a@b.c', '--json'], {}, 'usage', 2],
      [['keys', 'craete', '--email', 'a@b.c', '--json'], {}, 'usage', 2],
      [['kyes', '--json'], {}, 'usage', 2],
      [['credits', 'add', '--email', 'a@b.c', '--usd', 'lots', '--json'], {}, 'usage', 2],
      [['users', 'create', '--json'], {}, 'usage', 2],
      [['conformance', '--json'], {}, 'usage', 2],
      [['migrate', '--json'], { PORT: 'eighty' }, 'configuration', 2],
      [['migrate', '--json'], { DATABASE_URL: 'postgres://127.0.0.1:1/nothing-listens-here' }, 'internal', 1],
    ];
    for (const [argv, env, type, code] of cases) {
      const res = await run(argv, env);
      expect(res.code, argv.join(' ')).toBe(code);
      expect(res.out, argv.join(' ')).toBe('');
      expect(res.err.split('\n'), argv.join(' ')).toHaveLength(1);
      const { error } = JSON.parse(res.err);
      expect(error, argv.join(' ')).toEqual({ type, message: expect.any(String), exit_code: code });
      expect(error.message).not.toMatch(NODE_TEXT);
    }
    const far = JSON.parse((await run(['kyes', '--json'], {})).err);
    expect(far.error.message).toBe('unknown command "kyes"; did you mean npx modelgate keys?');
  });
});
