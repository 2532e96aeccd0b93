// `make bench-scale`: the observability-cost and workers comparisons of `make bench` (bench/lib/scale-comparison.ts)
// alone, with longer windows: metrics + tracing on vs off at c=16, `serve --workers 2` vs 1 at c=64. Writes
// bench/results/scale.{md,json}. Usage:
//   node dist/bench/scale-compare.js [measure seconds, default 5] [rounds, default 12] [comparison id...]
// where the ids are metrics, observability-unsampled, observability, observability-sampled and workers (by default the
// last three).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { accountingSummary } from './lib/scratch-database.js';
import { standaloneRun } from './lib/standalone-run.js';
import { runScaleComparisons, SCALE_COMPARISON_IDS, type ScaleComparison } from './lib/scale-comparison.js';
import { renderScaleSection } from './lib/report-scale.js';

async function main(): Promise<void> {
  const measureSeconds = Number(process.argv[2] ?? 5);
  const rounds = Number(process.argv[3] ?? 12);
  const ids = process.argv.slice(4);
  const unknown = ids.filter((id) => !(SCALE_COMPARISON_IDS as readonly string[]).includes(id));
  if (unknown.length > 0 || !(measureSeconds > 0) || !(rounds > 0)) {
    throw new Error(
      `usage: scale-compare.js [measure seconds] [rounds] [${SCALE_COMPARISON_IDS.join('|')}...]${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`,
    );
  }
  await standaloneRun('scale', async ({ group, load, paths, env, apiKey, database, ownPids, log }) => {
    const scale = await runScaleComparisons(
      { group, load, paths, env, apiKey, ownPids, log },
      { rounds, steadyStateSeconds: 15, warmupSeconds: 1, measureSeconds },
      ids.length > 0 ? (ids as ScaleComparison['id'][]) : undefined,
    );
    const accounting = await accountingSummary(database.url);
    const markdown = [
      '# Modelgate: observability cost and workers',
      '',
      `\`make bench-scale\` (the same comparisons as the section of \`make bench\`, longer windows). Accounting consistent after the run: ${accounting.consistent ? 'yes' : '**NO**'}.`,
      '',
      renderScaleSection(scale),
    ].join('\n');
    const resultsDir = process.env.BENCH_RESULTS_DIR ?? path.join(paths.repoRoot, 'bench/results');
    writeFileSync(path.join(resultsDir, 'scale.md'), markdown);
    writeFileSync(path.join(resultsDir, 'scale.json'), `${JSON.stringify({ scale, accounting }, null, 2)}\n`);
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
