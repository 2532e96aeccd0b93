// The observability-cost and workers comparisons as Markdown: a section of results/full.md, and the whole of
// results/scale.md when `make bench-scale` runs them alone.
import type { ScaleResults } from './scale-comparison.js';
import { scaleRatios } from './scale-comparison.js';
import { DISTURBED_FOREIGN_PCT } from './machine-window.js';
import { median } from './stats.js';

function table(headers: string[], rows: (string | number | undefined)[][]): string {
  const line = (cells: (string | number | undefined)[]) =>
    `| ${cells.map((c) => (c === undefined ? '—' : String(c))).join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

const pct = (v: number | undefined) => (v === undefined ? '—' : `${(v * 100).toFixed(1)}%`);
const fixed = (v: number | undefined, digits: number) => (v === undefined ? '—' : v.toFixed(digits));

export function renderScaleSection(scale: ScaleResults, heading = '##'): string {
  const out = [
    `${heading} Observability cost and workers (Modelgate)`,
    '',
    `Each comparison starts its two variants (fresh processes, same scratch database, mock upstream) and keeps both up across its rounds; each first gets ${scale.steadyStateSeconds} s of ` +
      `unmeasured load, then ${scale.rounds} alternating rounds of ${scale.warmupSeconds} s warm-up + ${scale.measureSeconds} s measured per variant ` +
      '(the first variant of a round alternates). "Paired" is the median over rounds of the two runs\' req/s ratio, leaving out rounds in which either run ' +
      `had more than ${DISTURBED_FOREIGN_PCT}% foreign load (†) when others exist, with the distribution-free 95% confidence interval of that median ` +
      '(order statistics; from 6 rounds): many short rounds rather than a few long ones, because the foreign load of this shared machine drifts over ' +
      'seconds and only runs close in time compare. CPU counts the primary and its workers. ' +
      `Metrics: \`MODELGATE_METRICS_TOKEN\` set and \`/metrics\` scraped every second (${scale.metricsScrapes} scrapes answered); tracing: ` +
      `\`OTEL_EXPORTER_OTLP_ENDPOINT\` pointed at a local OTLP sink (${scale.otlpBatches} batches received). Workers: both variants on a private ` +
      '`redis-server` with per-key limits on, so every request goes through the shared limiter.',
    '',
  ];
  for (const comparison of scale.comparisons) {
    const [base, other] = comparison.variants;
    const ratios = scaleRatios(comparison);
    out.push(`${heading}# ${comparison.title}`, '');
    out.push(
      table(
        ['variant', 'req/s (median)', 'p99 ms (median)', 'CPU ms/req (median)', 'failed', 'req/s per round'],
        comparison.variants.map((v) => [
          v.name,
          fixed(median(v.runs.map((r) => r.rps)), 0),
          fixed(median(v.runs.map((r) => r.p99)), 2),
          fixed(median(v.runs.map((r) => r.cpuMsPerRequest)), 3),
          v.runs.reduce((n, r) => n + r.failures, 0),
          v.runs.map((r) => `${r.rps}${r.machine.foreignPct > DISTURBED_FOREIGN_PCT ? '†' : ''}`).join(', '),
        ]),
      ),
    );
    const interval = ratios.interval
      ? `, 95% confidence interval ${pct(ratios.interval[0])}–${pct(ratios.interval[1])}`
      : '';
    out.push(
      '',
      `${other.name} ÷ ${base.name}: **${pct(ratios.median)}** of the req/s (paired${interval}${ratios.disturbedLeftOut ? `, ${ratios.disturbedLeftOut} disturbed round(s) left out` : ''}; per round ${ratios.perRound.map(pct).join(', ')}; ` +
        `ratio of the medians ${pct(ratios.medianOfMedians)}). † more than ${DISTURBED_FOREIGN_PCT}% foreign load during the run.`,
      '',
    );
  }
  return out.join('\n');
}
