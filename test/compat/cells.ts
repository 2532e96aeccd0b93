// One cell of the matrix: a client, a model family and a turn. A plain turn passes when the client prints the
// recorded upstream's answer; a tool turn when the client ran its file-reading tool on the model's request and
// the next turn carried the result (the upstream names the token it found in it, and the client prints that). A
// defaults turn is a plain turn on the client's own default model, and passes only when the gateway answered none
// of the session's requests with a 404 (its log says): a client's start-up calls must find their models too.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { firstLine, type CellPaths, type ClientDriver, type ClientOutcome } from './clients/driver.js';
import type { GatewayUnderTest } from './gateway-under-test.js';
import { transportOf, type Transport } from './cell-transport.js';
import { runLaunch } from './run-client.js';
import type { FamilyPrefix, RecordedUpstream } from './upstream/recorded-upstream.js';
import { PLAIN_ANSWER, READ_MARKER, RESULT_PREFIX } from './upstream/script.js';

export interface Family {
  id: string;
  name: string;
  /** The catalog model the client is set to. */
  model: string;
  upstream: FamilyPrefix;
}

export const FAMILIES: Family[] = [
  { id: 'openai', name: 'OpenAI', model: 'openai/gpt-5.5', upstream: 'openai' },
  { id: 'anthropic', name: 'Anthropic', model: 'anthropic/claude-sonnet-5-5', upstream: 'anthropic' },
  { id: 'gemini', name: 'Gemini', model: 'google/gemini-3.5-flash', upstream: 'google' },
  { id: 'deepseek', name: 'DeepSeek (OpenAI-compatible)', model: 'deepseek/deepseek-v4-pro', upstream: 'deepseek' },
  { id: 'pass', name: '`pass/` (subscription)', model: 'pass/kimi-k2.7-code', upstream: 'pass' },
];

export type Turn = 'plain' | 'tool' | 'defaults';

export interface CellResult {
  /** The cell's id, also written into its prompt: upstream.find(family, cell) gives the requests it made. */
  cell: string;
  client: string;
  family: string;
  turn: Turn;
  ok: boolean;
  /** Empty when ok; else the failure's first line. */
  detail: string;
  ms: number;
  /** For a client that asks for WebSocket mode: the transport its turns used. */
  transport?: Transport;
  /** The HOME folder, when kept (CellOptions.keep). */
  home?: string;
}

export interface CellOptions {
  timeoutMs?: number;
  /** Keep a failed cell's temp HOME, with the client's stdout and stderr in it, for a look after the run. */
  keep?: boolean;
}

export interface TurnOptions extends CellOptions {
  /** The prompt, given the cell's folders (a tool turn names a file in the workspace). */
  prompt(paths: CellPaths): string;
  /** Command-line arguments after the driver's (e.g. Codex's --sandbox). */
  extraArgs?: string[];
  /** The Modelgate key the client is given (default: the gateway's own). */
  key?: string;
  /** Called after the client exited, before the folders are removed. */
  inspect?(paths: CellPaths): void | Promise<void>;
}

export interface TurnRun {
  outcome: ClientOutcome;
  timedOut: boolean;
  ms: number;
  home: string;
  stdout: string;
  stderr: string;
}

/** One client turn in a fresh HOME and git workspace, the client configured as the docs show for `model`. */
export async function runClientTurn(
  driver: ClientDriver,
  model: string,
  gateway: GatewayUnderTest,
  options: TurnOptions,
): Promise<TurnRun> {
  const home = mkdtempSync(join(tmpdir(), 'modelgate-compat-'));
  const paths = { home, workspace: join(home, 'work') };
  mkdirSync(paths.workspace);
  mkdirSync(join(home, 'tmp'));
  execFileSync('git', ['init', '-q', paths.workspace]);
  try {
    const key = options.key ?? gateway.key;
    const launch = driver.prepare({ origin: gateway.url, model }, paths, key, options.prompt(paths));
    launch.args.push(...(options.extraArgs ?? []));
    const run = await runLaunch(driver.binary, launch, home, paths.workspace, options.timeoutMs ?? 180_000);
    const outcome = run.setupFailure ? { error: run.setupFailure } : driver.parse(run.stdout, run.stderr);
    await options.inspect?.(paths);
    if (options.keep) {
      writeFileSync(join(home, 'client.stdout'), run.stdout);
      writeFileSync(join(home, 'client.stderr'), run.stderr);
    }
    return { outcome, timedOut: run.timedOut, ms: run.ms, home, stdout: run.stdout, stderr: run.stderr };
  } finally {
    if (!options.keep) rmSync(home, { recursive: true, force: true });
  }
}

export async function runCell(
  driver: ClientDriver,
  family: Family,
  turn: Turn,
  gateway: GatewayUnderTest,
  upstream: RecordedUpstream,
  options: CellOptions = {},
): Promise<CellResult> {
  const cell = `cell-${driver.id}-${family.id}-${turn}-${randomBytes(3).toString('hex')}`;
  const token = `compat-token-${randomBytes(4).toString('hex')}`;
  const prompt = (paths: CellPaths) => {
    if (turn !== 'tool') return `Say hello (${cell}).`;
    const notes = join(paths.workspace, 'notes.txt');
    writeFileSync(notes, `${token}\n`);
    return `${READ_MARKER} ${notes} : read that file with your file-reading tool and tell me the token it holds (${cell}).`;
  };
  const logged = gateway.logs.length;
  // A key of its own, so the cell's sockets and records are its own while other cells run.
  const key = driver.websockets ? await gateway.cellKey(cell) : undefined;
  const model = turn === 'defaults' ? '' : family.model;
  const run = await runClientTurn(driver, model, gateway, { ...options, prompt, key: key?.secret });
  const transport = key && transportOf(gateway.logs.slice(logged), key.id, await gateway.generationsOf(key.id));
  const expected = turn === 'tool' ? `${RESULT_PREFIX} ${token}` : PLAIN_ANSWER;
  const { outcome } = run;
  const missing = turn === 'defaults' ? notFoundPaths(gateway.logs.slice(logged)) : [];
  const answered = !run.timedOut && outcome.answer !== undefined && outcome.answer.includes(expected);
  const ok = answered && missing.length === 0;
  let detail = '';
  if (answered && !ok) detail = `the gateway answered 404 to ${missing.join(', ')}`;
  else if (!ok) {
    detail =
      outcome.error ??
      (outcome.answer !== undefined ? `answered: ${firstLine(outcome.answer) || '(empty)'}` : 'no answer');
    if (run.timedOut) detail = `timed out after ${Math.round(run.ms / 1000)} s; ${detail}`;
    if (!upstream.find(family.upstream, cell).length) detail += ' (no request reached the upstream)';
  }
  // A passing cell's folders are of no interest: only failed cells keep theirs.
  if (options.keep && ok) rmSync(run.home, { recursive: true, force: true });
  return {
    cell,
    client: driver.id,
    family: family.id,
    turn,
    ok,
    detail,
    ms: run.ms,
    ...(transport ? { transport } : {}),
    ...(options.keep && !ok ? { home: run.home } : {}),
  };
}

/**
 * The paths of the request log lines that answered 404. A defaults cell runs alone (the matrix runs them after the
 * concurrent cells), so the lines logged during it are its client's.
 */
export function notFoundPaths(lines: readonly string[]): string[] {
  return lines.flatMap((line) => {
    if (!line.includes('"status":404')) return [];
    const entry = JSON.parse(line) as { msg?: string; path?: string; status?: number };
    return entry.msg === 'request' && entry.status === 404 ? [String(entry.path)] : [];
  });
}
