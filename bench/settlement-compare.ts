// Before and after a change on the request path, on PostgreSQL: two compiled trees (each a repository root with its
// dist/, e.g. `git archive` of two commits, each built), each with a scratch database and a gateway of its own in
// front of one mock upstream. Small JSON and small streamed chat requests: at c=1 the latency (p50, p99), at c=16 the
// CPU per request of the gateway and of its PostgreSQL backends. Rounds alternate which tree goes first; the table
// gives the median of the rounds and their range. Written for settlement before the answer ends (docs/performance.md).
//   npx tsx bench/settlement-compare.ts --before /tmp/before --after /tmp/after [--rounds 5] [--seconds 5]
//     [--after-pg-options='-c synchronous_commit=off']   (PostgreSQL settings for the after tree's connections)
//     [--key-limit-usd 1000000]   (the bench key gets a monthly USD limit: its admission is measured too)
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { LoadGenerator } from './lib/load.js';
import type { LoadSummary } from './lib/load-types.js';
import { ProcessGroup } from './lib/processes.js';
import { cpuMs, postgresBackendPids } from './lib/proc-stats.js';
import { chatBody, GATEWAY_MODEL } from './lib/requests.js';
import { createScratchDatabase, setKeyLimits, type ScratchDatabase } from './lib/scratch-database.js';
import {
  gatewayEnv,
  provisionGateway,
  startMock,
  startModelgate,
  type BenchPaths,
  type RunningSystem,
} from './lib/systems.js';

const { values } = parseArgs({
  options: {
    before: { type: 'string' },
    after: { type: 'string' },
    rounds: { type: 'string' },
    seconds: { type: 'string' },
    'after-pg-options': { type: 'string' },
    'key-limit-usd': { type: 'string' },
  },
});
if (!values.before || !values.after)
  throw new Error('usage: settlement-compare --before ROOT --after ROOT [--rounds N] [--seconds S]');
const ROUNDS = Number(values.rounds ?? 5);
const SECONDS = Number(values.seconds ?? 5);
const SCENARIOS = ['json', 'stream'] as const;
type Scenario = (typeof SCENARIOS)[number];

interface Tree {
  label: 'before' | 'after';
  paths: BenchPaths;
  database?: ScratchDatabase;
  gateway?: RunningSystem;
}

interface Sample {
  tree: Tree['label'];
  scenario: Scenario;
  round: number;
  p50: number;
  p99: number;
  gatewayCpuMs: number;
  postgresCpuMs: number;
  rps: number;
}

const runDir = path.resolve('bench/.run/settlement-compare');
mkdirSync(runDir, { recursive: true });
const trees: Tree[] = (['before', 'after'] as const).map((label) => {
  const root = path.resolve(label === 'before' ? values.before! : values.after!);
  return { label, paths: { repoRoot: root, distDir: path.join(root, 'dist'), runDir: path.join(runDir, label) } };
});
const group = new ProcessGroup();
const load = new LoadGenerator(group, trees[1].paths.distDir, path.join(runDir, 'load-generator.log'));
const samples: Sample[] = [];

try {
  for (const tree of trees) mkdirSync(tree.paths.runDir, { recursive: true });
  const mock = await startMock(group, trees[1].paths);
  for (const tree of trees) {
    tree.database = await createScratchDatabase(process.env.BENCH_PG_SOCKET_DIR ?? '/var/run/postgresql');
    const pgOptions = tree.label === 'after' ? values['after-pg-options'] : undefined;
    const url =
      pgOptions === undefined ? tree.database.url : `${tree.database.url}&options=${encodeURIComponent(pgOptions)}`;
    const env = gatewayEnv(tree.paths, url, mock.baseUrl);
    const apiKey = await provisionGateway(tree.paths, env);
    if (values['key-limit-usd']) await setKeyLimits(tree.database.url, Number(values['key-limit-usd']));
    tree.gateway = await startModelgate(group, tree.paths, env, apiKey);
  }
  for (let round = 1; round <= ROUNDS; round++) {
    const order = round % 2 === 1 ? trees : [...trees].reverse();
    for (const scenario of SCENARIOS) for (const tree of order) samples.push(await measure(tree, scenario, round));
    console.log(`round ${round}/${ROUNDS} done`);
  }
} finally {
  await load.close();
  await group.stopAll();
  for (const tree of trees) await tree.database?.drop();
}

async function measure(tree: Tree, scenario: Scenario, round: number): Promise<Sample> {
  const gateway = tree.gateway!;
  const job = (connections: number) => ({
    url: gateway.url,
    headers: { ...gateway.headers, 'content-type': 'application/json' },
    body: chatBody(scenario, GATEWAY_MODEL),
    connections,
    warmupSeconds: 1,
    measureSeconds: SECONDS,
  });
  const latency = await load.run(job(1));
  let before = { gateway: 0, postgres: 0 };
  const backends = () => postgresBackendPids(tree.database!.name);
  const sum = (pids: number[]) => pids.reduce((total, pid) => total + cpuMs(pid), 0);
  let pids: number[] = [];
  const busy: LoadSummary = await load.run(job(16), () => {
    pids = backends();
    before = { gateway: cpuMs(gateway.pid), postgres: sum(pids) };
  });
  const gatewayCpu = cpuMs(gateway.pid) - before.gateway;
  const postgresCpu = sum(pids) - before.postgres;
  return {
    tree: tree.label,
    scenario,
    round,
    p50: latency.latency.p50,
    p99: latency.latency.p99,
    gatewayCpuMs: gatewayCpu / busy.ok,
    postgresCpuMs: postgresCpu / busy.ok,
    rps: busy.rps,
  };
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const fmt = (xs: number[], digits = 2) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;
const lines = [
  `${new Date().toISOString().slice(0, 10)}, ${ROUNDS} rounds of ${SECONDS} s per figure; median (range of the rounds)` +
    (values['after-pg-options'] ? `; after with PostgreSQL options \`${values['after-pg-options']}\`` : '') +
    (values['key-limit-usd'] ? `; the key has a monthly limit of ${values['key-limit-usd']} USD` : ''),
  '',
  '| request | tree | c=1 p50 ms | c=1 p99 ms | c=16 gateway CPU ms/req | c=16 PostgreSQL CPU ms/req | c=16 req/s |',
  '|---|---|---|---|---|---|---|',
];
for (const scenario of SCENARIOS) {
  for (const tree of trees) {
    const mine = samples.filter((s) => s.scenario === scenario && s.tree === tree.label);
    lines.push(
      `| ${scenario} | ${tree.label} | ${fmt(mine.map((s) => s.p50))} | ${fmt(mine.map((s) => s.p99))} | ${fmt(mine.map((s) => s.gatewayCpuMs))} | ${fmt(
        mine.map((s) => s.postgresCpuMs),
        3,
      )} | ${fmt(
        mine.map((s) => s.rps),
        0,
      )} |`,
    );
  }
  // Paired per round: after − before.
  const diff = (key: 'p50' | 'p99') => {
    const rounds = [...new Set(samples.map((s) => s.round))];
    return rounds.map((round) => {
      const pick = (label: Tree['label']) =>
        samples.find((s) => s.round === round && s.scenario === scenario && s.tree === label)![key];
      return pick('after') - pick('before');
    });
  };
  lines.push(`| ${scenario} | after − before, paired | ${fmt(diff('p50'))} | ${fmt(diff('p99'))} | | | |`);
}
const report = lines.join('\n');
console.log(report);
writeFileSync(path.join(runDir, 'settlement-compare.md'), `${report}\n`);
writeFileSync(path.join(runDir, 'settlement-compare.json'), JSON.stringify(samples, null, 2));
