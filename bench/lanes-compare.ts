// `make bench-lanes`: the lanes comparison of `make bench` (bench/lib/lane-comparison.ts) alone: Modelgate's CPU per
// request on each native lane and on the translated lane, small and ~400 KB coding-agent requests, paired with the
// bare proxy. Writes bench/results/lanes.{md,json}. Usage:
//   node dist/bench/lanes-compare.js [measure seconds, default 3] [rounds, default 6] [lane id...]
// where the lane ids are those of LANES (by default all).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { accountingSummary } from './lib/scratch-database.js';
import { standaloneRun } from './lib/standalone-run.js';
import { LANES, runLaneComparison } from './lib/lane-comparison.js';
import { renderLanesSection } from './lib/report-lanes.js';
import { machineInfo } from './lib/environment.js';

async function main(): Promise<void> {
  const measureSeconds = Number(process.argv[2] ?? 3);
  const rounds = Number(process.argv[3] ?? 6);
  const ids = process.argv.slice(4);
  const unknown = ids.filter((id) => !LANES.some((lane) => lane.id === id));
  if (unknown.length > 0 || !(measureSeconds > 0) || !(rounds > 0)) {
    throw new Error(
      `usage: lanes-compare.js [measure seconds] [rounds] [${LANES.map((l) => l.id).join('|')}...]${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`,
    );
  }
  await standaloneRun('lanes', async ({ group, load, paths, env, apiKey, mockBaseUrl, database, ownPids, log }) => {
    const lanes = await runLaneComparison(
      { group, load, paths, env, apiKey, mockBaseUrl, database: database.name, ownPids, log },
      { rounds, steadyStateSeconds: 3, warmupSeconds: 1, measureSeconds, concurrency: 8 },
      ids.length > 0 ? LANES.filter((lane) => ids.includes(lane.id)) : LANES,
    );
    const accounting = await accountingSummary(database.url);
    const machine = machineInfo();
    const markdown = [
      '# Modelgate: lanes against the bare proxy',
      '',
      `\`make bench-lanes\` (the same comparison as the section of \`make bench\`, alone). ${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}. ` +
        `Accounting consistent after the run: ${accounting.consistent ? 'yes' : '**NO**'}.`,
      '',
      renderLanesSection(lanes),
    ].join('\n');
    const resultsDir = process.env.BENCH_RESULTS_DIR ?? path.join(paths.repoRoot, 'bench/results');
    writeFileSync(path.join(resultsDir, 'lanes.md'), markdown);
    writeFileSync(path.join(resultsDir, 'lanes.json'), `${JSON.stringify({ machine, lanes, accounting }, null, 2)}\n`);
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
