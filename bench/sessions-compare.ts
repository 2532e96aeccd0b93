// `make bench-sessions`: a coding agent's session of N turns (default 30) from the ~400 KB conversation of the lanes
// bench, growing by one tool call and its output each turn, sent three ways side by side in one run (lib/agent-session.ts):
// HTTP re-sending the whole conversation, HTTP with previous_response_id and stored responses, and WebSocket mode.
// For each: bytes the gateway received per turn, the gateway's CPU per turn (all its threads, from /proc), its
// PostgreSQL backends' CPU per turn, and wall time per turn against the mock upstream (Responses → OpenAI, native
// lane). A warm-up session per mode first, then repeated sessions in a rotating order. Writes
// bench/results/sessions.{md,json}. Usage:
//   node dist/bench/sessions-compare.js [turns, default 30] [sessions per mode, default 5]
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { SESSION_MODES, type SessionMode, runSession } from './lib/agent-session.js';
import { machineInfo } from './lib/environment.js';
import { MachineWindow } from './lib/machine-window.js';
import { cpuDelta, cpuSnapshot, postgresBackendPids, threadCpuNs } from './lib/proc-stats.js';
import { freePort, waitForPort } from './lib/processes.js';
import { MODE_TITLES, type SessionRun, renderSessions } from './lib/report-sessions.js';
import { accountingSummary } from './lib/scratch-database.js';
import { type StandaloneRun, standaloneRun } from './lib/standalone-run.js';
import { round } from './lib/stats.js';
import { SERVE_NODE_OPTIONS } from '../src/cli/serve-node-options.js';

const MODEL = 'openai/gpt-test';
const WARM_UP_TURNS = 5;

async function startGateway(run: StandaloneRun): Promise<{ base: string; pid: number; child: ChildProcess }> {
  const port = await freePort();
  const child = run.group.start(
    'modelgate',
    process.execPath,
    [...SERVE_NODE_OPTIONS, path.join(run.paths.distDir, 'bench/gateway-entry.js')],
    {
      env: { ...run.env, PORT: String(port) },
      cwd: run.paths.repoRoot,
      logFile: path.join(run.paths.runDir, 'modelgate.log'),
    },
  );
  await waitForPort(port, child, 'modelgate', 60_000);
  return { base: `http://127.0.0.1:${port}`, pid: child.pid!, child };
}

/** The modes in repetition `n`'s order: each mode goes first, second and third in turn. */
function rotated(n: number): SessionMode[] {
  return SESSION_MODES.map((_, i) => SESSION_MODES[(i + n) % SESSION_MODES.length]);
}

/**
 * Every mode must have served the same conversation: a continued turn whose upstream request was much smaller than the
 * whole-resend turn's would mean the gateway did not expand the chain, and its figures would flatter it.
 */
function checkExpanded(runs: readonly SessionRun[]): void {
  const last = (mode: SessionMode) => runs.find((r) => r.mode === mode)!.turns.at(-1)!.upstreamTokens;
  for (const mode of SESSION_MODES)
    if (last(mode) < 0.95 * last('full'))
      throw new Error(`${mode}: the last turn reached the upstream with ${last(mode)} tokens, not ~${last('full')}`);
}

async function main(): Promise<void> {
  const turns = Number(process.argv[2] ?? 30);
  const repetitions = Number(process.argv[3] ?? 5);
  if (!(turns >= 2) || !(repetitions >= 1))
    throw new Error('usage: sessions-compare.js [turns ≥ 2] [sessions per mode]');
  await standaloneRun('sessions', async (run) => {
    const gateway = await startGateway(run);
    const target = { base: gateway.base, apiKey: run.apiKey, model: MODEL, cpuNs: () => threadCpuNs(gateway.pid) };
    const dbPids = () => postgresBackendPids(run.database.name);
    for (const mode of SESSION_MODES) await runSession(target, mode, WARM_UP_TURNS);
    run.log(`sessions: warmed up (${WARM_UP_TURNS} turns per mode)`);
    const runs: SessionRun[] = [];
    for (let repetition = 1; repetition <= repetitions; repetition++) {
      for (const mode of rotated(repetition - 1)) {
        const machine = new MachineWindow(() => [...run.ownPids(), ...dbPids()]);
        const db = cpuSnapshot(dbPids());
        const samples = await runSession(target, mode, turns);
        const session: SessionRun = {
          mode,
          repetition,
          turns: samples.map((s) => ({ ...s, wallMs: round(s.wallMs, 2), cpuMs: round(s.cpuMs, 2) })),
          dbCpuMsPerTurn: round(cpuDelta(db, cpuSnapshot(dbPids())) / turns, 2),
          machine: machine.close(),
        };
        runs.push(session);
        const sum = (f: (s: (typeof samples)[number]) => number) => samples.reduce((a, s) => a + f(s), 0);
        run.log(
          `sessions: ${MODE_TITLES[mode]} · repetition ${repetition}: ${round(sum((s) => s.bytes) / 1e6, 2)} MB, ` +
            `CPU ${round(sum((s) => s.cpuMs) / turns, 1)} ms/turn + db ${session.dbCpuMsPerTurn}, ` +
            `wall ${round(sum((s) => s.wallMs) / turns, 1)} ms/turn [${session.machine.foreignPct}% foreign]`,
        );
      }
    }
    checkExpanded(runs);
    // A graceful stop hands back the credits the gateway's lease still holds, so the books can be checked.
    await run.group.stop(gateway.child, 40_000);
    const accounting = await accountingSummary(run.database.url);
    const machine = machineInfo();
    const markdown = [
      '# Modelgate: an agent session three ways',
      '',
      `\`make bench-sessions\`: ${turns} turns of a coding agent on \`${MODEL}\` (Responses → OpenAI, the mock upstream), ` +
        `from the ~400 KB conversation of the lanes bench, one tool call and its output added each turn. ` +
        `${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}. ` +
        `Accounting consistent after the run: ${accounting.consistent ? 'yes' : '**NO**'}.`,
      '',
      renderSessions(runs, SESSION_MODES),
    ].join('\n');
    const resultsDir = process.env.BENCH_RESULTS_DIR ?? path.join(run.paths.repoRoot, 'bench/results');
    writeFileSync(path.join(resultsDir, 'sessions.md'), `${markdown}\n`);
    writeFileSync(
      path.join(resultsDir, 'sessions.json'),
      `${JSON.stringify({ machine, model: MODEL, turns, repetitions, runs, accounting }, null, 2)}\n`,
    );
    console.log(markdown);
  });
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
