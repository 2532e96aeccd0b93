// The lanes comparison as a Markdown section (bench/results/lanes.md, and a section of make bench's report): per lane
// and request size, the CPU per request of the bare proxy and of Modelgate, and the paired ratios with their spread.
import type { LaneResults, LaneRow, LaneRun } from './lane-comparison.js';
import { DISTURBED_FOREIGN_PCT } from './machine-window.js';
import { median, medianInterval, round } from './stats.js';

export interface PairedRatio {
  median: number;
  /** The 95% interval of the median with 6 or more rounds, else the smallest and largest ratio. */
  spread: [number, number];
  spreadKind: '95% CI' | 'min–max';
  rounds: number;
  disturbedLeftOut: number;
}

/**
 * Modelgate ÷ pass-through of `pick` per round, leaving out rounds in which either run had more than
 * DISTURBED_FOREIGN_PCT foreign load when undisturbed rounds exist.
 */
export function pairedRatio(row: LaneRow, pick: (run: LaneRun) => number): PairedRatio | undefined {
  const pairs = row.modelgate.flatMap((run) => {
    const ref = row.passthrough.find((r) => r.round === run.round);
    if (!ref || pick(ref) <= 0 || run.failures > 0 || ref.failures > 0) return [];
    return [
      {
        value: pick(run) / pick(ref),
        disturbed: Math.max(run.machine.foreignPct, ref.machine.foreignPct) > DISTURBED_FOREIGN_PCT,
      },
    ];
  });
  const clean = pairs.filter((p) => !p.disturbed);
  const used = (clean.length > 0 ? clean : pairs).map((p) => p.value);
  const m = median(used);
  if (m === undefined) return undefined;
  const interval = medianInterval(used);
  const spread: [number, number] = interval ?? [Math.min(...used), Math.max(...used)];
  return {
    median: round(m, 2),
    spread: [round(spread[0], 2), round(spread[1], 2)],
    spreadKind: interval ? '95% CI' : 'min–max',
    rounds: used.length,
    disturbedLeftOut: pairs.length - used.length,
  };
}

function cpuCell(runs: LaneRun[], pick: (run: LaneRun) => number | undefined = (r) => r.cpuMsPerRequest): string {
  const values = runs.map(pick).filter((v): v is number => v !== undefined);
  const m = median(values);
  if (m === undefined) return '—';
  return `${round(m, 2)} (${round(Math.min(...values), 2)}–${round(Math.max(...values), 2)})`;
}

function ratioCell(ratio: PairedRatio | undefined): string {
  if (!ratio) return '—';
  return `**${ratio.median}×** (${ratio.spread[0]}–${ratio.spread[1]})${ratio.disturbedLeftOut ? ` ¹` : ''}`;
}

export function renderLanesSection(results: LaneResults): string {
  const ratioKinds = new Set(
    results.rows.flatMap((row) => [pairedRatio(row, (r) => r.cpuMsPerRequest)?.spreadKind]).filter(Boolean),
  );
  const failures = results.rows.reduce(
    (n, row) => n + [...row.passthrough, ...row.modelgate].reduce((m, r) => m + r.failures, 0),
    0,
  );
  const leftOut = results.rows.some((row) => (pairedRatio(row, (r) => r.cpuMsPerRequest)?.disturbedLeftOut ?? 0) > 0);
  const lines = [
    '## Lanes: small and coding-agent-sized requests, against the bare proxy',
    '',
    `Non-streaming requests at c=${results.concurrency}; ${results.rounds} paired round${results.rounds === 1 ? '' : 's'} per row (the bare proxy and Modelgate back to back, ` +
      `${results.warmupSeconds} s warm-up + ${results.measureSeconds} s measured each, alternating order) after ${results.steadyStateSeconds} s ` +
      'of unmeasured load per system and row. "agent" is a ~400 KB request of 240 messages and 25 tools (bench/lib/agent-requests.ts), ' +
      'the same conversation in each protocol. The bare proxy is Koa 3 + undici that parses each body once and forwards it to the ' +
      "same mock endpoint. CPU: milliseconds of the process per request, median (min–max) over the rounds; Modelgate's PostgreSQL " +
      `backends (metering, credits) apart. Ratios: Modelgate ÷ bare proxy per round, median (${[...ratioKinds].join(' or ') || 'spread'}).`,
    '',
    '| lane | door → upstream | request | body | bare proxy CPU ms/req | Modelgate CPU ms/req | + PostgreSQL ms/req | CPU ratio | req/s ratio |',
    '|---|---|---|---:|---:|---:|---:|---:|---:|',
    ...results.rows.map((row) =>
      [
        row.kind,
        row.title,
        row.size,
        `${round(row.bodyBytes / 1024, 1)} KB`,
        cpuCell(row.passthrough),
        cpuCell(row.modelgate),
        cpuCell(row.modelgate, (r) => r.dbCpuMsPerRequest),
        ratioCell(pairedRatio(row, (r) => r.cpuMsPerRequest)),
        ratioCell(pairedRatio(row, (r) => r.rps)),
      ]
        .join(' | ')
        .replace(/^/, '| ')
        .concat(' |'),
    ),
    '',
  ];
  if (leftOut)
    lines.push(
      `¹ Rounds with more than ${DISTURBED_FOREIGN_PCT}% foreign load on the machine left out of the ratio (undisturbed rounds exist).`,
      '',
    );
  if (failures > 0)
    lines.push(
      `**${failures} requests failed** during measured runs; rounds with failures are left out of the ratios.`,
      '',
    );
  return lines.join('\n');
}
