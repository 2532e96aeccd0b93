// The issue's targets, checked against what this run measured (never asserted): each gets the measured
// figure and pass/fail, or null when this run did not measure it.
import type { BenchResults, TargetResult } from './results.js';
import { cell, difference, pairedAdded, pairedRatio, probeCell, ratio, type PairedFigure } from './aggregate.js';
import { VARIANT_LABELS, type ProbeVariant } from './plan.js';
import { scaleRatios } from './scale-comparison.js';

function fmt(value: number | undefined, unit = '', digits = 2): string {
  return value === undefined ? 'not measured' : `${value.toFixed(digits)}${unit}`;
}

/** How a paired figure was formed, before the unpaired medians (named by `beside`) it is shown with. */
function pairedNote(paired: PairedFigure | undefined, beside = 'medians of repetitions'): string {
  if (!paired) return '';
  const leftOut = paired.disturbedLeftOut > 0 ? `, ${paired.disturbedLeftOut} disturbed left out` : '';
  return `median of ${paired.rounds} paired rounds${leftOut}; ${beside} `;
}

function check(value: number | undefined, ok: (v: number) => boolean): boolean | null {
  return value === undefined ? null : ok(value);
}

export function evaluateTargets(results: BenchResults): TargetResult[] {
  const mg16 = cell(results, 'modelgate', 'json', 16);
  const portkey16 = cell(results, 'portkey', 'json', 16);
  const bare16 = cell(results, 'passthrough', 'json', 16);
  const pairedVsPortkey = pairedRatio(results, 'modelgate', 'portkey');
  const pairedVsBare = pairedRatio(results, 'modelgate', 'passthrough');
  const vsPortkey = pairedVsPortkey?.value ?? ratio(mg16?.rps, portkey16?.rps);
  const vsBare = pairedVsBare?.value ?? ratio(mg16?.rps, bare16?.rps);
  const mgJson = probeCell(results, 'modelgate', 'json');
  const mockJson = probeCell(results, 'mock', 'json');
  const pairedP50 = pairedAdded(results, 'modelgate', 'json', 'p50');
  const addedP50 = pairedP50?.value ?? difference(mgJson?.p50, mockJson?.p50);
  const pairedP99 = pairedAdded(results, 'modelgate', 'json', 'p99');
  const addedP99 = pairedP99?.value ?? difference(mgJson?.p99, mockJson?.p99);
  const mgStream = probeCell(results, 'modelgate', 'stream');
  const mockStream = probeCell(results, 'mock', 'stream');
  const pairedTtfc = pairedAdded(results, 'modelgate', 'stream', 'firstChunkP50');
  const ttfcAdded = pairedTtfc?.value ?? difference(mgStream?.firstChunkP50, mockStream?.firstChunkP50);
  const pairedDelay = pairedAdded(results, 'modelgate', 'stream', 'chunkDelayP99');
  const delayAdded = pairedDelay?.value ?? difference(mgStream?.chunkDelayP99, mockStream?.chunkDelayP99);
  const pace = results.plan.paceMs;
  const rss64 = results.runs.filter((r) => r.system === 'modelgate' && r.concurrency === 64).map((r) => r.rssMaxMb);
  const rssMax = rss64.length ? Math.max(...rss64) : undefined;
  const leak = results.leak;
  const accounting = results.accounting;
  const mockStreamFirst = mockStream?.firstChunkP50;
  /** A Modelgate variant's paired added figure, against the same target as the plain request's. */
  const variantTarget = (
    variant: ProbeVariant,
    id: string,
    description: string,
    figure: 'p50' | 'p99' | 'firstChunkP50',
    limit: number,
  ): TargetResult => {
    const scenario = figure === 'firstChunkP50' ? 'stream' : 'json';
    const own = probeCell(results, 'modelgate', scenario, variant);
    const paired = pairedAdded(results, 'modelgate', scenario, figure, variant);
    const floor = figure === 'firstChunkP50' ? mockStreamFirst : mockJson?.[figure];
    const value = paired?.value ?? difference(own?.[figure], floor);
    const malformed = own?.failures ? `; ${own.failures} failed` : '';
    return {
      id,
      description: `${VARIANT_LABELS[variant]}: ${description}`,
      measured: `${fmt(value, ' ms', 3)} (${pairedNote(paired)}${fmt(own?.[figure], '', 3)} vs ${fmt(floor, ' ms', 3)})${malformed}`,
      pass: own?.failures ? false : check(value, (v) => v <= limit),
    };
  };
  const observability = results.scale?.comparisons.find((c) => c.id === 'observability');
  const observabilityRatio = observability ? scaleRatios(observability) : undefined;
  return [
    {
      id: 'throughput-vs-portkey',
      description: 'non-streaming req/s at c=16 ≥ 4× Portkey',
      measured:
        vsPortkey === undefined
          ? 'not measured'
          : `${vsPortkey.toFixed(2)}× (${pairedNote(pairedVsPortkey, 'grid medians')}${mg16?.rps} vs ${portkey16?.rps} req/s)`,
      pass: check(vsPortkey, (v) => v >= 4),
    },
    {
      id: 'throughput-vs-passthrough',
      description: 'non-streaming req/s at c=16 ≥ 60% of the bare pass-through',
      measured:
        vsBare === undefined
          ? 'not measured'
          : `${(vsBare * 100).toFixed(0)}% (${pairedNote(pairedVsBare, 'grid medians')}${mg16?.rps} vs ${bare16?.rps} req/s)`,
      pass: check(vsBare, (v) => v >= 0.6),
    },
    {
      id: 'added-latency-p50',
      description: 'added latency over the direct mock at c=1, p50 ≤ 1 ms',
      measured: `${fmt(addedP50, ' ms', 3)} (${pairedNote(pairedP50)}${fmt(mgJson?.p50, '', 3)} vs ${fmt(mockJson?.p50, ' ms', 3)})`,
      pass: check(addedP50, (v) => v <= 1),
    },
    {
      id: 'added-latency-p99',
      description: 'added latency over the direct mock at c=1, p99 ≤ 5 ms',
      measured: `${fmt(addedP99, ' ms', 3)} (${pairedNote(pairedP99)}${fmt(mgJson?.p99, '', 3)} vs ${fmt(mockJson?.p99, ' ms', 3)})`,
      pass: check(addedP99, (v) => v <= 5),
    },
    {
      id: 'first-chunk-added-p50',
      description: 'streaming: time to first chunk added over the mock, p50 ≤ 1 ms',
      measured: `${fmt(ttfcAdded, ' ms', 3)} (${pairedNote(pairedTtfc)}${fmt(mgStream?.firstChunkP50, '', 3)} vs ${fmt(mockStream?.firstChunkP50, ' ms', 3)})`,
      pass: check(ttfcAdded, (v) => v <= 1),
    },
    {
      id: 'no-chunk-buffered',
      description: `streaming: no chunk held back (every chunk its own event; added p99 delay of chunks after the first < the ${pace} ms pacing)`,
      measured: `${fmt(delayAdded, ' ms', 3)} added p99 chunk delay (${pairedNote(pairedDelay)}${fmt(mgStream?.chunkDelayP99, '', 3)} vs ${fmt(mockStream?.chunkDelayP99, ' ms', 3)}); ${mgStream?.failures ?? 0} malformed streams`,
      pass: check(delayAdded, (v) => v < pace && (mgStream?.failures ?? 0) === 0),
    },
    variantTarget(
      'routed',
      'routed-added-latency-p50',
      'added latency over the direct mock at c=1, p50 ≤ 1 ms',
      'p50',
      1,
    ),
    variantTarget(
      'routed',
      'routed-added-latency-p99',
      'added latency over the direct mock at c=1, p99 ≤ 5 ms',
      'p99',
      5,
    ),
    variantTarget(
      'messages',
      'messages-first-event-added-p50',
      'streaming: time to first content event added over the mock, p50 ≤ 1 ms',
      'firstChunkP50',
      1,
    ),
    variantTarget(
      'responses',
      'responses-first-event-added-p50',
      'streaming: time to first content event added over the mock, p50 ≤ 1 ms',
      'firstChunkP50',
      1,
    ),
    {
      id: 'observability-cost',
      description:
        'metrics (scraped every second) and tracing (OTLP to a local sink) on: non-streaming req/s at c=16 ≥ 97% of off',
      measured:
        observabilityRatio?.median === undefined
          ? 'not measured'
          : `${(observabilityRatio.median * 100).toFixed(1)}% (median of ${observabilityRatio.perRound.length - observabilityRatio.disturbedLeftOut} paired rounds` +
            `${observabilityRatio.interval ? `, 95% CI ${observabilityRatio.interval.map((v) => (v * 100).toFixed(1)).join('–')}%` : ''}` +
            `${observabilityRatio.disturbedLeftOut ? `, ${observabilityRatio.disturbedLeftOut} disturbed left out` : ''}; ratio of the medians ${((observabilityRatio.medianOfMedians ?? NaN) * 100).toFixed(1)}%)`,
      pass: check(observabilityRatio?.median, (v) => v >= 0.97),
    },
    {
      id: 'rss-c64',
      description: 'gateway RSS at c=64 ≤ 200 MB',
      measured: fmt(rssMax, ' MB', 1),
      pass: check(rssMax, (v) => v <= 200),
    },
    {
      id: 'no-leak',
      description: `no RSS growth across a ${leak?.seconds ?? 60} s run at c=64 (post-GC floor of the last quarter within 10% of the second quarter's)`,
      measured: leak
        ? `floor ${leak.startMb} → ${leak.endMb} MB (floors trend ${leak.slopeMbPerMin} MB/min, peak ${leak.maxMb} MB)`
        : 'not measured',
      pass: leak ? leak.pass : null,
    },
    {
      id: 'metering',
      description: 'real metering: every request settled, no reservation left, debits = recorded costs',
      measured: accounting
        ? `${Object.entries(accounting.generations)
            .map(([k, v]) => `${v} ${k}`)
            .join(
              ', ',
            )}; ${accounting.debitRows} debits, ${accounting.debitedUsd.toFixed(6)} USD; reserved left ${accounting.reservedLeftNanos}`
        : 'not measured',
      pass: accounting ? accounting.consistent && (accounting.generations.success ?? 0) > 0 : null,
    },
  ];
}
