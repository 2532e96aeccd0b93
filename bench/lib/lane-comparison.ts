// The lanes comparison: Modelgate's CPU per request and throughput on each lane, for a small and a
// ~400 KB coding-agent request (agent-requests.ts), side by side with the bare Koa + undici proxy that parses each body
// once and forwards it to the same mock endpoint. Rows: the three native lanes (chat → OpenAI, Messages → Anthropic,
// Responses → OpenAI) and the translated lane both ways agents take it (Messages → an OpenAI model: Claude Code on
// GPT; Responses → an Anthropic model: Codex on Claude). Run as a section of `make bench` (run-bench.ts) and alone by
// `make bench-lanes` (lanes-compare.ts).
// Both systems stay up through the comparison and are brought to steady state on every row first. Each round runs the
// pass-through and Modelgate back to back on one row (the order alternates), so each ratio pairs runs seconds apart on
// this noisy shared machine; the report gives the median of the per-round ratios and their spread.
import type { ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { LoadGenerator } from './load.js';
import { freePort, waitForPort, type ProcessGroup } from './processes.js';
import { doorHeaders, doorPath, laneBody, type LaneDoor, type RequestSize } from './agent-requests.js';
import { MachineWindow, type MachineShare } from './machine-window.js';
import { childPids, cpuDelta, cpuSnapshot, postgresBackendPids } from './proc-stats.js';
import type { BenchPaths } from './systems.js';
import { round } from './stats.js';
import { CONTENT_WORDS } from '../mock-replies.js';
import { SERVE_NODE_OPTIONS } from '../../src/cli/serve-node-options.js';

export interface Lane {
  id: string;
  title: string;
  door: LaneDoor;
  lane: 'native' | 'translated';
  /** The catalog id the gateway is asked for, and the upstream's own name the pass-through forwards. */
  gatewayModel: string;
  upstreamModel: string;
}

export const LANES: readonly Lane[] = [
  {
    id: 'chat-openai',
    title: 'chat → OpenAI',
    door: 'chat',
    lane: 'native',
    gatewayModel: 'openai/gpt-test',
    upstreamModel: 'gpt-test-2026',
  },
  {
    id: 'messages-anthropic',
    title: 'Messages → Anthropic',
    door: 'messages',
    lane: 'native',
    gatewayModel: 'anthropic/claude-test',
    upstreamModel: 'claude-test-2026',
  },
  {
    id: 'responses-openai',
    title: 'Responses → OpenAI',
    door: 'responses',
    lane: 'native',
    gatewayModel: 'openai/gpt-test',
    upstreamModel: 'gpt-test-2026',
  },
  {
    id: 'messages-openai',
    title: 'Messages → OpenAI chat',
    door: 'messages',
    lane: 'translated',
    gatewayModel: 'openai/gpt-test',
    upstreamModel: 'gpt-test-2026',
  },
  {
    id: 'responses-anthropic',
    title: 'Responses → Anthropic',
    door: 'responses',
    lane: 'translated',
    gatewayModel: 'anthropic/claude-test',
    upstreamModel: 'claude-test-2026',
  },
];
export const REQUEST_SIZES: readonly RequestSize[] = ['small', 'agent'];

export interface LaneWindow {
  rounds: number;
  /** Unmeasured load per system and row before the first round. */
  steadyStateSeconds: number;
  warmupSeconds: number;
  measureSeconds: number;
  concurrency: number;
}

export interface LaneRun {
  round: number;
  rps: number;
  p50: number;
  /** CPU of the system's own process per completed request. */
  cpuMsPerRequest: number;
  /** Modelgate only: CPU of its PostgreSQL backends per request (metering and credits). */
  dbCpuMsPerRequest?: number;
  failures: number;
  machine: MachineShare;
}

export interface LaneRow {
  lane: string;
  title: string;
  kind: Lane['lane'];
  size: RequestSize;
  /** The gateway's request body, bytes. */
  bodyBytes: number;
  passthrough: LaneRun[];
  modelgate: LaneRun[];
}

export interface LaneResults extends LaneWindow {
  rows: LaneRow[];
}

export interface LaneContext {
  group: ProcessGroup;
  load: LoadGenerator;
  paths: BenchPaths;
  /** The gateway's environment (gatewayEnv: the bench catalog, every provider on the mock) and a key with credits. */
  env: NodeJS.ProcessEnv;
  apiKey: string;
  mockBaseUrl: string;
  /** The scratch database's name, for its backends' CPU. */
  database: string;
  ownPids: () => number[];
  log: (line: string) => void;
}

interface Target {
  name: 'passthrough' | 'modelgate';
  child: ChildProcess;
  /** Base URL the door paths go under. */
  base: string;
  headers: Record<string, string>;
  model: (lane: Lane) => string;
  pids: () => number[];
}

export async function runLaneComparison(
  ctx: LaneContext,
  window: LaneWindow,
  lanes: readonly Lane[] = LANES,
): Promise<LaneResults> {
  const targets: Target[] = [];
  try {
    targets.push(await startPassthroughParsing(ctx), await startGateway(ctx));
    const cells = lanes.flatMap((lane) => REQUEST_SIZES.map((size) => ({ lane, size })));
    for (const { lane, size } of cells) for (const t of targets) await checkAnswer(t, lane, size);
    for (const { lane, size } of cells) {
      for (const t of targets) await ctx.load.run(job(t, lane, size, window, 0, window.steadyStateSeconds));
    }
    const rows: LaneRow[] = [];
    for (const { lane, size } of cells) {
      const row: LaneRow = {
        lane: lane.id,
        title: lane.title,
        kind: lane.lane,
        size,
        bodyBytes: Buffer.byteLength(laneBody(lane.door, size, lane.gatewayModel)),
        passthrough: [],
        modelgate: [],
      };
      for (let roundNo = 1; roundNo <= window.rounds; roundNo++) {
        for (const t of roundNo % 2 === 1 ? targets : [...targets].reverse()) {
          const run = await measure(
            ctx,
            t,
            targets,
            job(t, lane, size, window, window.warmupSeconds, window.measureSeconds),
            roundNo,
          );
          row[t.name].push(run);
          ctx.log(
            `lanes: ${lane.title} (${lane.lane}) · ${size} · ${t.name} · round ${roundNo}: ${run.rps} req/s, CPU ${run.cpuMsPerRequest} ms/req` +
              `${run.dbCpuMsPerRequest === undefined ? '' : ` + db ${run.dbCpuMsPerRequest}`}${run.failures ? `, ${run.failures} FAILED` : ''}` +
              ` [machine ${run.machine.busyPct}% busy, ${run.machine.foreignPct}% foreign]`,
          );
        }
      }
      rows.push(row);
    }
    return { ...window, rows };
  } finally {
    for (const t of targets) await ctx.group.stop(t.child, 40_000);
  }
}

function job(
  t: Target,
  lane: Lane,
  size: RequestSize,
  window: LaneWindow,
  warmupSeconds: number,
  measureSeconds: number,
) {
  return {
    url: `${t.base}${doorPath(lane.door)}`,
    headers: { ...t.headers, ...doorHeaders(lane.door) },
    body: laneBody(lane.door, size, t.model(lane)),
    connections: window.concurrency,
    warmupSeconds,
    measureSeconds,
  };
}

async function measure(
  ctx: LaneContext,
  t: Target,
  all: Target[],
  load: ReturnType<typeof job>,
  roundNo: number,
): Promise<LaneRun> {
  let cpu = new Map<number, number>();
  let db = new Map<number, number>();
  let machine: MachineWindow | undefined;
  const dbPids = () => (t.name === 'modelgate' ? postgresBackendPids(ctx.database) : []);
  const summary = await ctx.load.run(load, () => {
    cpu = cpuSnapshot(t.pids());
    db = cpuSnapshot(dbPids());
    machine = new MachineWindow(() => [
      ...ctx.ownPids(),
      ...all.flatMap((x) => x.pids()),
      ...postgresBackendPids(ctx.database),
    ]);
  });
  const requests = Math.max(1, summary.ok);
  return {
    round: roundNo,
    rps: round(summary.rps, 1),
    p50: round(summary.latency.p50, 2),
    cpuMsPerRequest: round(cpuDelta(cpu, cpuSnapshot(t.pids())) / requests, 3),
    ...(t.name === 'modelgate' ? { dbCpuMsPerRequest: round(cpuDelta(db, cpuSnapshot(dbPids())) / requests, 3) } : {}),
    failures: summary.non2xx + summary.errors,
    machine: machine?.close() ?? { busyPct: 0, foreignPct: 0 },
  };
}

/**
 * Before anything is measured, one request per cell and system must answer 200 with the mock's words in the door's
 * own answer shape: the load runs count 2xx, and a door answering in the wrong shape would still be one.
 */
export async function checkAnswer(
  t: Pick<Target, 'name' | 'base' | 'headers' | 'model'>,
  lane: Lane,
  size: RequestSize,
): Promise<void> {
  const res = await fetch(`${t.base}${doorPath(lane.door)}`, {
    method: 'POST',
    headers: { ...t.headers, ...doorHeaders(lane.door) },
    body: laneBody(lane.door, size, t.model(lane)),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await res.text();
  const where = `${t.name}: ${lane.title} (${size})`;
  if (res.status !== 200) throw new Error(`${where}: HTTP ${res.status}: ${text.slice(0, 300)}`);
  const answer = JSON.parse(text) as Record<string, unknown>;
  const said = answerText(lane.door, answer);
  if (said !== CONTENT_WORDS.join(''))
    throw new Error(`${where}: not the mock's reply in the door's shape: ${text.slice(0, 300)}`);
}

function answerText(door: LaneDoor, answer: Record<string, unknown>): string | undefined {
  type Parts = { type?: string; text?: string }[];
  switch (door) {
    case 'chat':
      return (answer.choices as { message?: { content?: string } }[] | undefined)?.[0]?.message?.content;
    case 'messages':
      return answer.type === 'message' ? (answer.content as Parts).find((p) => p.type === 'text')?.text : undefined;
    case 'responses':
      return answer.object === 'response'
        ? (
            (answer.output as { type?: string; content?: Parts }[]).find((o) => o.type === 'message')?.content ?? []
          ).find((p) => p.type === 'output_text')?.text
        : undefined;
  }
}

async function startPassthroughParsing(ctx: LaneContext): Promise<Target> {
  const port = await freePort();
  const child = ctx.group.start(
    'passthrough',
    process.execPath,
    [path.join(ctx.paths.distDir, 'bench/passthrough.js'), String(port)],
    {
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        NODE_ENV: 'production',
        UPSTREAM_BASE_URL: ctx.mockBaseUrl,
        PASSTHROUGH_PARSE_BODY: '1',
      },
      cwd: ctx.paths.repoRoot,
      logFile: path.join(ctx.paths.runDir, 'lanes-passthrough.log'),
    },
  );
  await waitForPort(port, child, 'passthrough');
  const pid = child.pid!;
  return {
    name: 'passthrough',
    child,
    base: `http://127.0.0.1:${port}/v1`,
    headers: { authorization: 'Bearer bench' },
    model: (l) => l.upstreamModel,
    pids: () => [pid],
  };
}

async function startGateway(ctx: LaneContext): Promise<Target> {
  const port = await freePort();
  const child = ctx.group.start(
    'modelgate',
    process.execPath,
    [...SERVE_NODE_OPTIONS, path.join(ctx.paths.distDir, 'bench/gateway-entry.js')],
    {
      env: { ...ctx.env, PORT: String(port) },
      cwd: ctx.paths.repoRoot,
      logFile: path.join(ctx.paths.runDir, 'lanes-modelgate.log'),
    },
  );
  await waitForPort(port, child, 'modelgate', 60_000);
  const pid = child.pid!;
  return {
    name: 'modelgate',
    child,
    base: `http://127.0.0.1:${port}/api/v1`,
    headers: { authorization: `Bearer ${ctx.apiKey}` },
    model: (l) => l.gatewayModel,
    pids: () => [pid, ...childPids(pid)],
  };
}
