// results/<mode>.md: targets first, then each figure side by side with its ratio to the peers, then every run.
import {
  SCENARIO_LABELS,
  SYSTEM_LABELS,
  VARIANT_LABELS,
  steadyStateSummary,
  type Scenario,
  type SystemName,
} from './plan.js';
import type { BenchResults } from './results.js';
import { cell, difference, pairedAdded, probeCell, ratio } from './aggregate.js';
import { DISTURBED_FOREIGN_PCT } from './machine-window.js';
import { median } from './stats.js';
import { variantsSection } from './report-variants.js';
import { renderScaleSection } from './report-scale.js';
import { renderLanesSection } from './report-lanes.js';

function table(headers: string[], rows: (string | number | undefined)[][]): string {
  const line = (cells: (string | number | undefined)[]) =>
    `| ${cells.map((c) => (c === undefined ? '—' : String(c))).join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

const x = (v: number | undefined) => (v === undefined ? undefined : `${v.toFixed(2)}×`);
const ms = (v: number | undefined, digits = 2) => (v === undefined ? undefined : v.toFixed(digits));
const signed = (v: number | undefined) => (v === undefined ? undefined : `${v >= 0 ? '+' : ''}${v.toFixed(3)}`);

function scenarioGrid(results: BenchResults): Map<Scenario, number[]> {
  const grid = new Map<Scenario, number[]>();
  for (const { scenario, concurrency } of results.plan.grid)
    grid.set(scenario, [...(grid.get(scenario) ?? []), concurrency]);
  return grid;
}

function header(results: BenchResults): string {
  const m = results.machine;
  const p = results.plan;
  return [
    `# Modelgate benchmark — ${results.mode} run`,
    '',
    `Run ${results.startedAt} (${Math.round(results.durationS)} s) on ${m.cpus} × ${m.cpuModel}, ${m.memoryGb} GB, Node ${m.node}, Linux ${m.kernel}` +
      ` (load average at start ${m.loadAverageAtStart.map((v) => v.toFixed(2)).join(' ')})` +
      (results.git
        ? `, commit ${results.git.commit.slice(0, 10)}${results.git.dirty ? ' + uncommitted changes' : ''}`
        : '') +
      '.',
    '',
    `First, ${steadyStateSummary(p)} (JIT and heap reach steady state). ` +
      `Every configuration: ${p.warmupSeconds} s warm-up, then ${p.measureSeconds} s measured with autocannon (closed loop, its own process), ` +
      `${p.reps} repetition(s), systems interleaved. Figures are medians over repetitions; ratios compare systems measured in the same run. ` +
      `Added latency at c=1 comes from a sequential probe (one connection per system, sub-millisecond timing)` +
      (p.probe.rounds > 1
        ? `, interleaved: every system in turn, ${p.probe.rounds} slices of ${ms((p.probe.seconds / p.probe.rounds) * 1000, 0)} ms each per repetition, so all sample the same moments; ` +
          `"paired" added figures are the median, over all rounds, of a system's slice figure (p50, p99, first chunk, chunk delay) minus the mock's of the same round ` +
          `(rounds in which either slice had more than ${DISTURBED_FOREIGN_PCT}% foreign load, marked †, are left out when others exist). `
        : '. ') +
      `Streams in probes are stamped by the mock and paced ${p.paceMs} ms apart. Reproduce with \`make bench${results.mode === 'quick' ? '-quick' : ''}\`.`,
    ...(results.skipped.length
      ? ['', ...results.skipped.map((s) => `**Skipped:** ${SYSTEM_LABELS[s.system]} — ${s.reason}`)]
      : []),
    ...noise(results),
    ...(results.incidents.length ? ['', '**Interruptions:**', '', ...results.incidents.map((i) => `- ${i}`)] : []),
  ].join('\n');
}

/** How much of the shared machine other work took while we measured: the caveat every figure carries. */
function noise(results: BenchResults): string[] {
  const foreign = results.runs.flatMap((r) => (r.machine ? [r.machine.foreignPct] : []));
  if (foreign.length === 0) return [];
  const mean = foreign.reduce((a, b) => a + b, 0) / foreign.length;
  return [
    '',
    `During the measured windows, processes outside this benchmark used on average ${mean.toFixed(0)}% of the machine's CPU ` +
      `(max ${Math.max(...foreign).toFixed(0)}%; per run in the last table). Absolute figures move with that; ratios between systems measured side by side move less. ` +
      `Runs during which other work took more than ${DISTURBED_FOREIGN_PCT}% (marked †) are reported but left out of the medians when an undisturbed repetition exists.`,
  ];
}

function targetsSection(results: BenchResults): string {
  const verdict = (pass: boolean | null) => (pass === null ? 'not measured' : pass ? '**pass**' : '**FAIL**');
  return [
    '## Targets',
    '',
    table(
      ['target', 'measured', 'result'],
      results.targets.map((t) => [t.description, t.measured, verdict(t.pass)]),
    ),
  ].join('\n');
}

function throughputSection(results: BenchResults, grid: Map<Scenario, number[]>): string {
  const systems = results.systems;
  const out = ['## Throughput (2xx responses/s)', ''];
  for (const [scenario, concurrencies] of grid) {
    out.push(`### ${SCENARIO_LABELS[scenario]}`, '');
    const rows = concurrencies.map((c) => {
      const cells = new Map(systems.map((s) => [s, cell(results, s, scenario, c)] as const));
      const mg = cells.get('modelgate')?.rps;
      return [
        `c=${c}`,
        ...systems.map((s) => {
          const v = cells.get(s);
          const each = v?.rpsRuns.map((r) => `${r.rps}${r.disturbed ? '†' : ''}`).join(', ');
          return v
            ? `${v.rps}${v.rpsRuns.length > 1 ? ` (${each})` : ''}${v.failures ? ` ⚠ ${v.failures} failed` : ''}`
            : undefined;
        }),
        x(ratio(mg, cells.get('portkey')?.rps)),
        x(ratio(mg, cells.get('passthrough')?.rps)),
        x(ratio(mg, cells.get('mock')?.rps)),
      ];
    });
    out.push(
      table(
        [
          '',
          ...systems.map((s) => SYSTEM_LABELS[s]),
          'Modelgate ÷ Portkey',
          'Modelgate ÷ pass-through',
          'Modelgate ÷ mock',
        ],
        rows,
      ),
      '',
    );
  }
  return out.join('\n');
}

/** The paired throughput rounds, one row per round: where the paired ratios of the throughput targets come from. */
/** Modelgate's streaming request through POST /responses and POST /messages beside the same through /chat/completions. */
function responsesSection(results: BenchResults): string | undefined {
  const runs = results.responsesRuns ?? [];
  if (runs.length === 0) return undefined;
  const messages = results.messagesRuns ?? [];
  const c = runs[0].concurrency;
  const chat = results.runs.filter((r) => r.system === 'modelgate' && r.scenario === 'stream' && r.concurrency === c);
  const row = (label: string, rs: typeof runs) => [
    label,
    rs.length,
    ms(median(rs.map((r) => r.load.rps)), 0),
    ms(median(rs.map((r) => r.load.latency.p50))),
    ms(median(rs.map((r) => r.load.latency.p99))),
    ms(median(rs.map((r) => r.cpuMsPerRequest)), 3),
    rs.reduce((n, r) => n + r.load.non2xx + r.load.errors, 0),
  ];
  const rows = [
    row('POST /responses, stream', runs),
    ...(messages.length > 0 ? [row('POST /messages, stream', messages)] : []),
    row('POST /chat/completions, stream', chat),
  ];
  return [
    `## Streaming through the ${messages.length > 0 ? 'Responses and Messages front doors' : 'Responses front door'} (Modelgate, c=${c})`,
    '',
    "The same streamed generation (the mock's 20 chunks) requested as an OpenAI Responses API call (`POST /responses`, typed `response.*` events), " +
      "as an Anthropic Messages API call (`POST /messages`, Anthropic's event sequence) and as a chat completion. Medians over repetitions; the " +
      'other systems serve only chat completions.',
    '',
    table(['request', 'runs', 'req/s', 'p50 ms', 'p99 ms', 'CPU ms/req', 'failed'], rows),
  ].join('\n');
}

function responseCacheSection(results: BenchResults): string | undefined {
  const records = results.responseCache ?? [];
  if (records.length === 0) return undefined;
  const rows = (['json', 'stream'] as const).flatMap((scenario) => {
    const miss = records.find((r) => r.scenario === scenario && r.state === 'miss');
    const hit = records.find((r) => r.scenario === scenario && r.state === 'hit');
    if (!miss || !hit) return [];
    const share =
      miss.latency && hit.latency ? `${Math.round((hit.latency.p50 / miss.latency.p50) * 100)}%` : undefined;
    return [
      [
        SCENARIO_LABELS[scenario],
        miss.requests,
        ms(miss.latency?.p50, 3),
        ms(miss.latency?.p99, 3),
        hit.requests,
        ms(hit.latency?.p50, 3),
        ms(hit.latency?.p99, 3),
        share,
        miss.failures + hit.failures,
      ],
    ];
  });
  return [
    '## Response cache: a hit against a miss (Modelgate, c=1)',
    '',
    'The same chat request with `X-Modelgate-Cache: refresh` (a miss: the gateway calls the mock and stores the answer) and ' +
      'with `on` (a hit: the stored answer is replayed under a new generation id, recorded, no upstream call), in alternating ' +
      'slices over one keep-alive connection each; in-process store.',
    '',
    table(
      [
        'request',
        'misses',
        'miss p50 ms',
        'miss p99 ms',
        'hits',
        'hit p50 ms',
        'hit p99 ms',
        'hit p50 ÷ miss p50',
        'failed',
      ],
      rows,
    ),
  ].join('\n');
}

function throughputRoundsSection(results: BenchResults): string | undefined {
  const runs = results.throughputRounds ?? [];
  if (runs.length === 0) return undefined;
  const { scenario, concurrency, warmupSeconds, measureSeconds } = results.plan.throughputRounds;
  const systems = results.systems.filter((s) => runs.some((r) => r.system === s));
  const roundNumbers = [...new Set(runs.map((r) => r.round))].sort((a, b) => a - b);
  const rows = roundNumbers.map((round) => {
    const own = new Map(runs.filter((r) => r.round === round).map((r) => [r.system, r] as const));
    const rps = (s: SystemName) => own.get(s)?.load.rps;
    const foreign = Math.max(...[...own.values()].map((r) => r.machine?.foreignPct ?? 0));
    return [
      `${round}${foreign > DISTURBED_FOREIGN_PCT ? '†' : ''}`,
      ...systems.map((s) => rps(s)),
      x(ratio(rps('modelgate'), rps('portkey'))),
      x(ratio(rps('modelgate'), rps('passthrough'))),
      ms(foreign, 1),
    ];
  });
  return [
    `## Paired throughput rounds (${SCENARIO_LABELS[scenario]}, c=${concurrency})`,
    '',
    `After each repetition's grid, these systems ran back to back again, ${warmupSeconds} s warm-up and ${measureSeconds} s measured each, in a rotating order. ` +
      `The throughput targets take the median of the rounds' ratios (rounds in which any run had more than ${DISTURBED_FOREIGN_PCT}% foreign load, marked †, ` +
      'are left out when others exist): a burst of foreign load moves the ratios of the rounds it covers, not the median.',
    '',
    table(
      [
        'round',
        ...systems.map((s) => `${SYSTEM_LABELS[s]} req/s`),
        'Modelgate ÷ Portkey',
        'Modelgate ÷ pass-through',
        'max foreign %',
      ],
      rows,
    ),
  ].join('\n');
}

function latencySection(results: BenchResults, grid: Map<Scenario, number[]>): string {
  const systems = results.systems;
  const rows: (string | undefined)[][] = [];
  for (const [scenario, concurrencies] of grid) {
    for (const c of concurrencies) {
      rows.push([
        `${SCENARIO_LABELS[scenario]}, c=${c}`,
        ...systems.map((s) => {
          const v = cell(results, s, scenario, c);
          return v ? `${v.p50} / ${v.p99}` : undefined;
        }),
      ]);
    }
  }
  return [
    '## Latency under load (ms, p50 / p99 of whole responses; streams until [DONE])',
    '',
    table(['', ...systems.map((s) => SYSTEM_LABELS[s])], rows),
  ].join('\n');
}

function probeSection(results: BenchResults): string {
  const out = ['## Added latency at c=1 (sequential probe, ms)', ''];
  const rows: (string | undefined)[][] = [];
  for (const scenario of results.plan.probe.scenarios.filter((s) => s !== 'stream')) {
    const mock = probeCell(results, 'mock', scenario);
    for (const s of results.systems) {
      const p = probeCell(results, s, scenario);
      if (!p) continue;
      rows.push([
        SCENARIO_LABELS[scenario],
        SYSTEM_LABELS[s],
        ms(p.p50, 3),
        ms(p.p99, 3),
        s === 'mock' ? undefined : signed(difference(p.p50, mock?.p50)),
        s === 'mock' ? undefined : signed(pairedAdded(results, s, scenario, 'p50')?.value),
        s === 'mock' ? undefined : signed(difference(p.p99, mock?.p99)),
        s === 'mock' ? undefined : signed(pairedAdded(results, s, scenario, 'p99')?.value),
        `${p.requests}${p.failures ? ` ⚠ ${p.failures} failed` : ''}`,
      ]);
    }
  }
  out.push(
    table(
      [
        'request',
        'system',
        'p50',
        'p99',
        'added p50',
        'added p50, paired',
        'added p99',
        'added p99, paired',
        'requests',
      ],
      rows,
    ),
    '',
  );
  out.push('## Streaming: time to first content chunk and per-chunk delay (ms)', '');
  out.push(
    "Chunk delay: from the mock writing a stamped chunk to the client reading it, for the first content chunk (which includes the system's stream set-up) " +
      'and for every later chunk (a system that held chunks back would add at least one pacing interval there). Under load: one extra probe connection beside the autocannon connections.',
    '',
  );
  const mock = probeCell(results, 'mock', 'stream');
  const loadC = [
    ...new Set(results.plan.grid.filter((g) => g.scenario === 'stream' && g.concurrency > 1).map((g) => g.concurrency)),
  ];
  const streamRows = results.systems.map((s) => {
    const p = probeCell(results, s, 'stream');
    return [
      SYSTEM_LABELS[s as SystemName],
      ms(p?.firstChunkP50, 3),
      ms(p?.firstChunkP99, 3),
      s === 'mock' ? undefined : signed(difference(p?.firstChunkP50, mock?.firstChunkP50)),
      s === 'mock' ? undefined : signed(pairedAdded(results, s, 'stream', 'firstChunkP50')?.value),
      ms(p?.firstChunkDelayP50, 3),
      ms(p?.firstChunkDelayP99, 3),
      ms(p?.chunkDelayP50, 3),
      ms(p?.chunkDelayP99, 3),
      s === 'mock' ? undefined : signed(pairedAdded(results, s, 'stream', 'chunkDelayP99')?.value),
      ms(p?.chunkDelayMax, 3),
      ...loadC.map((c) => {
        const v = cell(results, s, 'stream', c);
        return v?.firstChunkP50 === undefined ? undefined : `${ms(v.firstChunkP50)} / ${ms(v.firstChunkP99)}`;
      }),
    ];
  });
  out.push(
    table(
      [
        'system',
        'first chunk p50',
        'p99',
        'added p50',
        'added p50, paired',
        'first chunk delay p50',
        'p99',
        'later chunks delay p50',
        'p99',
        'added p99, paired',
        'max',
        ...loadC.map((c) => `first chunk at c=${c} (p50 / p99)`),
      ],
      streamRows,
    ),
  );
  return out.join('\n');
}

function resourcesSection(results: BenchResults, grid: Map<Scenario, number[]>): string {
  const rows: (string | undefined)[][] = [];
  for (const [scenario, concurrencies] of grid) {
    for (const c of concurrencies) {
      rows.push([
        `${SCENARIO_LABELS[scenario]}, c=${c}`,
        ...results.systems.map((s) => {
          const v = cell(results, s, scenario, c);
          if (!v) return undefined;
          const db = v.dbCpuMsPerRequest === undefined ? '' : ` + ${v.dbCpuMsPerRequest} db`;
          return `${v.rssMaxMb} MB, ${v.cpuMsPerRequest}${db} ms`;
        }),
      ]);
    }
  }
  return [
    '## Memory (peak RSS) and CPU per request',
    '',
    'CPU is the process\'s own user+system time over the measured window ÷ completed requests; for Modelgate, "db" is PostgreSQL\'s CPU per request.',
    '',
    table(['', ...results.systems.map((s) => SYSTEM_LABELS[s])], rows),
  ].join('\n');
}

function extrasSection(results: BenchResults): string {
  const out: string[] = [];
  if (results.leak) {
    const l = results.leak;
    out.push(
      '## Leak check (Modelgate)',
      '',
      `${l.seconds} s at c=${l.concurrency} (half streaming, half not), ${Math.round(l.rps)} req/s, ${l.failures} failures. ` +
        `RSS is a sawtooth (it drops after each major collection), so the check follows its floors: second quarter ${l.startMb} MB, last quarter ${l.endMb} MB, ` +
        `trend of the 5 s floors ${l.slopeMbPerMin} MB/min, peak ${l.maxMb} MB → ${l.pass ? 'no growth' : '**growth**'}. ` +
        `RSS each second: ${l.samples.map((p) => Math.round(p.mb)).join(' ')}.`,
      '',
    );
  }
  if (results.accounting) {
    const a = results.accounting;
    out.push(
      '## Metering check',
      '',
      `Generations recorded: ${Object.entries(a.generations)
        .map(([k, v]) => `${v} ${k}`)
        .join(', ')}; ` +
        `${a.debitRows} ledger debits totalling ${a.debitedUsd.toFixed(6)} USD (recorded costs ${a.recordedCostUsd.toFixed(6)} USD); reserved credits left ${a.reservedLeftNanos} nanos → ${a.consistent ? 'consistent' : '**inconsistent**'}. ` +
        '(Aborted generations are requests autocannon left in flight when a timed run ended.)',
      '',
    );
  }
  if (results.gatewayLog) {
    out.push(
      `Gateway log (info level, to a file): ${results.gatewayLog.lines} lines, ${results.gatewayLog.errors} errors, ${results.gatewayLog.warnings} warnings.`,
      '',
    );
  }
  if (results.profile) {
    const p = results.profile;
    out.push(
      '## Where Modelgate spends its CPU',
      '',
      `\`node --cpu-prof\` under non-streaming then streaming load at c=16 (${p.window === 'load' ? 'load window only, start-up excluded' : 'whole process, start-up included'}): ` +
        `${p.busyMs} ms busy of ${p.durationMs} ms. Self time, % of busy time; \`(native)\` is time in C++/syscalls (socket writes, fs writes) attributed to no JS function.`,
      '',
      table(
        ['module', 'self %'],
        p.modules.slice(0, 15).map((m) => [m.module, m.selfPct.toFixed(1)]),
      ),
      '',
      table(
        ['function', 'location', 'self %'],
        p.top.map((f) => [`\`${f.functionName}\``, f.location, f.selfPct.toFixed(1)]),
      ),
      '',
    );
  }
  return out.join('\n');
}

function rawSection(results: BenchResults): string {
  const rows = results.runs.map((r) => [
    r.rep,
    SYSTEM_LABELS[r.system],
    SCENARIO_LABELS[r.scenario],
    r.concurrency,
    r.load.rps,
    r.load.latency.p50,
    r.load.latency.p99,
    r.load.non2xx + r.load.errors,
    r.rssMaxMb,
    r.cpuMsPerRequest,
    r.observer?.firstChunk ? `${r.observer.firstChunk.p50} / ${r.observer.firstChunk.p99}` : undefined,
    r.machine ? `${r.machine.busyPct} / ${r.machine.foreignPct}` : undefined,
  ]);
  const probes = [...results.probes, ...(results.variantProbes ?? [])].map((p) => [
    p.rep,
    p.variant ? VARIANT_LABELS[p.variant] : SYSTEM_LABELS[p.system],
    SCENARIO_LABELS[p.scenario],
    p.requests,
    p.failures,
    ms(p.latency?.p50, 3),
    ms(p.latency?.p99, 3),
    ms(p.firstChunk?.p50, 3),
    ms(p.chunkDelay?.p99, 3),
    roundsCell(p),
    p.machine ? `${p.machine.busyPct} / ${p.machine.foreignPct}` : undefined,
  ]);
  return [
    '## Every run',
    '',
    table(
      [
        'rep',
        'system',
        'request',
        'c',
        'req/s',
        'p50 ms',
        'p99 ms',
        'failed',
        'peak RSS MB',
        'CPU ms/req',
        'first chunk ms (p50 / p99)',
        'machine busy % / foreign %',
      ],
      rows,
    ),
    '',
    table(
      [
        'rep',
        'system',
        'probe',
        'requests',
        'failed',
        'p50 ms',
        'p99 ms',
        'first chunk p50',
        'later chunks delay p99',
        'p50 (first chunk for streams) per round',
        'machine busy % / foreign %',
      ],
      probes,
    ),
  ].join('\n');
}

/** The slice medians of an interleaved probe, round by round: where a burst of foreign load shows. */
function roundsCell(p: BenchResults['probes'][number]): string | undefined {
  if (!p.rounds?.length) return undefined;
  return p.rounds
    .map(
      (r) =>
        `${ms(p.scenario === 'stream' ? r.firstChunkP50 : r.p50) ?? '—'}${(r.foreignPct ?? 0) > DISTURBED_FOREIGN_PCT ? '†' : ''}`,
    )
    .join(' ');
}

export function renderMarkdown(results: BenchResults, chartFile: string): string {
  const grid = scenarioGrid(results);
  return [
    header(results),
    targetsSection(results),
    `![throughput and latency against concurrency](${chartFile})`,
    throughputSection(results, grid),
    throughputRoundsSection(results),
    responsesSection(results),
    latencySection(results, grid),
    probeSection(results),
    variantsSection(results),
    responseCacheSection(results),
    results.scale ? renderScaleSection(results.scale) : undefined,
    results.lanes ? renderLanesSection(results.lanes) : undefined,
    resourcesSection(results, grid),
    extrasSection(results),
    rawSection(results),
    '',
  ]
    .filter((section) => section !== undefined)
    .join('\n\n');
}
