// The real Claude Code (npm @anthropic-ai/claude-code), interactive in a pseudo-terminal, configured as
// docs/clients.md shows: the three variables and the statusLine block of ~/.claude/settings.json, its command run
// from this checkout's CLI against the gateway under test. The status line it draws under the prompt shows the
// session's spend exactly as the gateway recorded it, after one prompt and higher after a second; the session is the
// one Claude Code names in metadata.user_id and passes its status line command on stdin.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { nanosToUsd } from '../../src/core/money.js';
import { clientBinary } from '../compat/client-packages.js';
import { claudeCode } from '../compat/clients/claude-code.js';
import { exportsOf } from '../compat/clients/driver.js';
import { startGatewayUnderTest, type GatewayUnderTest } from '../compat/gateway-under-test.js';
import { isolatedEnv } from '../compat/run-client.js';
import { RecordedUpstream } from '../compat/upstream/recorded-upstream.js';
import { PLAIN_ANSWER } from '../compat/upstream/script.js';
import { TerminalProgram } from '../helpers/terminal-program.js';

const MODEL = 'anthropic/claude-sonnet-5-5';
const DOCS_CLI = 'node /path/to/modelgate/dist/src/cli.js';
const DOCS_URL = 'http://127.0.0.1:8080';
// This checkout's CLI in place of the built one the docs name (tsx over src/, from any working directory).
const CHECKOUT_CLI = `node --import ${resolve('node_modules/tsx/dist/loader.mjs')} ${resolve('src/cli.ts')}`;

interface SessionAnswer {
  spend_usd: number;
  requests: number;
}

let upstream: RecordedUpstream;
let gateway: GatewayUnderTest;
let key: { id: string; secret: string };
let home: string;
let claude: TerminalProgram | undefined;

/** The statusLine block of ~/.claude/settings.json as docs/clients.md shows it. */
function documentedStatusLine(): { type: string; command: string } {
  const docs = readFileSync('docs/clients.md', 'utf8');
  const block = [...docs.matchAll(/```json\n([\s\S]*?)```/g)].find((m) => m[1].includes('"statusLine"'));
  if (!block) throw new Error('docs/clients.md shows no statusLine block');
  return (JSON.parse(block[1]) as { statusLine: { type: string; command: string } }).statusLine;
}

/** The row under the prompt box (the last row drawn as a rule): where Claude Code puts its status line. */
function statusLine(screen: string[]): string | undefined {
  const rules = screen.flatMap((row, index) => (/^─{20,}$/.test(row) ? [index] : []));
  const row = rules.length === 0 ? undefined : screen[rules[rules.length - 1] + 1]?.trim();
  return row ? row : undefined;
}

async function sessionOf(id: string): Promise<SessionAnswer | undefined> {
  const res = await fetch(`${gateway.url}/api/v1/sessions/${encodeURIComponent(id)}`, {
    headers: { authorization: `Bearer ${key.secret}` },
  });
  return res.status === 200 ? ((await res.json()) as SessionAnswer) : undefined;
}

/** Claude Code's session id: its transcript file's name, written once the first prompt is sent. */
function claudeSessionId(): string | undefined {
  const projects = join(home, '.claude', 'projects');
  const files = readdirSync(projects, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl'));
  return files.length === 1
    ? files[0]
        .split('/')
        .pop()!
        .replace(/\.jsonl$/, '')
    : undefined;
}

beforeAll(async () => {
  upstream = await new RecordedUpstream().start();
  gateway = await startGatewayUnderTest(upstream);
  key = await gateway.cellKey('claude-code-statusline');
  home = mkdtempSync(join(tmpdir(), 'modelgate-statusline-'));
  mkdirSync(join(home, 'work'));
  mkdirSync(join(home, 'tmp'));
  mkdirSync(join(home, '.claude', 'projects'), { recursive: true });
  // The gateway starts on embedded PGlite, slow on a busy machine: more than the default minute is allowed.
}, 120_000);

afterAll(async () => {
  claude?.stop();
  await gateway?.close();
  await upstream?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

it("Claude Code's status line shows the session's spend as the gateway recorded it, and a second prompt raises it", async () => {
  const documented = documentedStatusLine();
  expect(documented.type).toBe('command');
  expect(documented.command.startsWith(`${DOCS_CLI} statusline `)).toBe(true);
  expect(documented.command).toContain(DOCS_URL);
  const command = documented.command.replace(DOCS_CLI, CHECKOUT_CLI).replace(DOCS_URL, gateway.url);
  const workspace = join(home, 'work');
  writeFileSync(join(home, '.claude', 'settings.json'), JSON.stringify({ statusLine: { ...documented, command } }));
  // Onboarding done and the folder trusted, as after a first start: no dialog stands before the prompt.
  writeFileSync(
    join(home, '.claude', '.claude.json'),
    JSON.stringify({
      hasCompletedOnboarding: true,
      theme: 'dark',
      projects: { [workspace]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
    }),
  );
  const launch = claudeCode.prepare({ origin: gateway.url, model: MODEL }, { home, workspace }, key.secret, '');
  expect(launch.env).toEqual(
    expect.objectContaining(exportsOf(claudeCode.snippet({ origin: gateway.url, model: MODEL }).text, key.secret)),
  );
  claude = new TerminalProgram({
    command: [clientBinary('claude')],
    cwd: workspace,
    env: isolatedEnv(home, { ...launch.env, TERM: 'xterm-256color' }),
    pidFile: join(home, 'claude.pid'),
  });
  const program = claude;
  const screen = () => program.screen.text();

  // Before any request the command already answers (the gateway knows no such session yet: nothing spent).
  await program.waitFor('the first status line', () => (statusLine(screen()) === '$0 · 0 requests' ? true : undefined));

  const turn = async (prompt: string, answers: number, above: number) => {
    program.type(prompt);
    await program.waitFor(
      `the prompt "${prompt}" typed`,
      () => screen().some((row) => row.includes(prompt)) || undefined,
    );
    program.type('\r');
    let expected = '(no session yet)';
    const what = () => `answer ${answers} and the status line "${expected}" (the gateway's figure)`;
    return program.waitFor(what, async () => {
      if (screen().filter((row) => row.includes(PLAIN_ANSWER)).length < answers) return undefined;
      const id = claudeSessionId();
      const session = id === undefined ? undefined : await sessionOf(id);
      if (!session || session.spend_usd <= above) return undefined;
      expected = `$${session.spend_usd} · ${session.requests} request${session.requests === 1 ? '' : 's'}`;
      return statusLine(screen()) === expected ? { id: id!, session, shown: expected } : undefined;
    });
  };

  const first = await turn('Say hello (statusline one).', 1, 0);
  expect(first.session.requests).toBeGreaterThanOrEqual(1);
  // The session the gateway tracks is the one Claude Code names in metadata.user_id (and gave its status command).
  const named = upstream.requests
    .filter((request) => request.protocol === 'messages')
    .map((request) => JSON.parse(request.body.metadata.user_id).session_id);
  expect(named.length).toBeGreaterThan(0);
  expect(new Set(named)).toEqual(new Set([first.id]));
  // The figure shown is what the generation records of the session's key add up to.
  await gateway.gateway.parts.settlements.drain();
  const records = await gateway.gateway.db
    .selectFrom('generations')
    .select('cost_nanos')
    .where('api_key_id', '=', key.id)
    .execute();
  expect(records).toHaveLength(first.session.requests);
  expect(nanosToUsd(records.reduce((sum, row) => sum + BigInt(row.cost_nanos), 0n))).toBe(first.session.spend_usd);

  const second = await turn('Say hello again (statusline two).', 2, first.session.spend_usd);
  expect(second.id).toBe(first.id);
  expect(second.session.requests).toBeGreaterThan(first.session.requests);
  expect(second.shown).not.toBe(first.shown);

  program.type('/exit');
  await program.waitFor('"/exit" typed', () => screen().some((row) => row.includes('/exit')) || undefined);
  program.type('\r');
  expect(await program.exit(15_000), `Claude Code quits on /exit; the screen:\n${program.dump()}`).toBe(0);
}, 120_000);
