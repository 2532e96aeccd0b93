// What one benchmark run measures and for how long. `full` is `make bench` (~20 min), `quick` is
// `make bench-quick` (~50 s plus the build): a smoke check of the targets on shorter windows, noisier than full
// runs. BENCH_* variables shorten runs while developing the benchmark itself.

export type Scenario = 'json' | 'stream' | 'prompt64k';
export type SystemName = 'mock' | 'passthrough' | 'modelgate' | 'portkey';

export const SYSTEM_LABELS: Record<SystemName, string> = {
  mock: 'mock upstream (direct)',
  passthrough: 'bare Koa + undici pass-through',
  modelgate: 'Modelgate',
  portkey: 'Portkey gateway 1.15.2',
};

export const SCENARIO_LABELS: Record<Scenario, string> = {
  json: 'non-streaming',
  stream: 'streaming (SSE, 20 chunks)',
  prompt64k: 'non-streaming, 64 KB prompt',
};

/**
 * Modelgate probed another way beside its plain chat request, in the same interleaved c=1 probe as the scenario it
 * varies: `routed` is the non-streaming request to a model with three endpoints (provider.order + models[]), `responses`
 * and `messages` the streaming request through the Responses and Messages front doors.
 */
export type ProbeVariant = 'routed' | 'responses' | 'messages';

export const VARIANT_SCENARIO: Record<ProbeVariant, Scenario> = {
  routed: 'json',
  responses: 'stream',
  messages: 'stream',
};

export const VARIANT_LABELS: Record<ProbeVariant, string> = {
  routed: 'Modelgate, model with 3 endpoints (provider.order + models[])',
  responses: 'Modelgate, POST /responses',
  messages: 'Modelgate, POST /messages',
};

export interface Plan {
  mode: 'quick' | 'full';
  grid: { scenario: Scenario; concurrency: number }[];
  reps: number;
  /** Once, before anything is measured: non-streaming then streaming load at c=16 on each system, so every
   * system reaches its JIT-compiled, heap-sized steady state (the gateway needs several seconds of load). */
  steadyStateSeconds: number;
  /** Systems given another steady-state duration (0: none); the others get `steadyStateSeconds`. */
  steadyStateSecondsOf?: Partial<Record<SystemName, number>>;
  warmupSeconds: number;
  measureSeconds: number;
  /** autocannon's sampling interval (LoadJob.sampleMs): full runs keep its 1 s; quick ones, with fractional
   * seconds, stop on time. */
  loadSampleMs: number;
  /**
   * c=1 precise probes (sub-millisecond timing): which requests, and the bounds of each. `seconds` and
   * `maxRequests` are per system and repetition, spread over `rounds` interleaved slices (interleaved-probe.ts).
   */
  probe: {
    scenarios: Scenario[];
    seconds: number;
    maxRequests: number;
    rounds: number;
    /** Unrecorded requests at the start of each slice. */
    sliceWarmupRequests: Record<Scenario, number>;
    warmupSeconds: number;
    /** Modelgate variants probed in the same interleaved slices as their scenario (VARIANT_SCENARIO). */
    variants: ProbeVariant[];
  };
  /**
   * Paired throughput: after each repetition's grid, `roundsPerRep` more short runs of one configuration on the
   * listed systems, back to back in a rotating order. Each round's ratios (Modelgate ÷ each reference) pair runs
   * minutes apart at most seconds, so a burst of foreign load that covers one run moves one ratio, not the median.
   */
  throughputRounds: {
    scenario: Scenario;
    concurrency: number;
    systems: SystemName[];
    roundsPerRep: number;
    warmupSeconds: number;
    measureSeconds: number;
  };
  /**
   * Modelgate only, once per repetition after the grid: the streaming request through the Responses and Messages
   * front doors (POST /responses, POST /messages) at this concurrency, beside the chat-completions streaming figure
   * of the same concurrency.
   */
  responsesStream: { concurrency: number };
  /**
   * The response cache at c=1 (cache-probe.ts): `seconds` per scenario and state (miss, hit), in `rounds` alternating
   * slices, each after `sliceWarmupRequests` unrecorded requests.
   */
  responseCache: { seconds: number; maxRequests: number; rounds: number; sliceWarmupRequests: number };
  /**
   * Observability cost and workers (scale-comparison.ts), after everything else: `rounds` alternating rounds per
   * comparison, each variant warmed up then measured. rounds 0 = skip (quick mode; `make bench-scale` runs it alone).
   */
  scale: { rounds: number; steadyStateSeconds: number; warmupSeconds: number; measureSeconds: number };
  /**
   * Small and ~400 KB agent requests on each lane against the bare proxy (lane-comparison.ts), after the scale section:
   * `rounds` paired rounds per row. rounds 0 = skip (quick mode; `make bench-lanes` runs it alone, with more rounds).
   */
  lanes: {
    rounds: number;
    steadyStateSeconds: number;
    warmupSeconds: number;
    measureSeconds: number;
    concurrency: number;
  };
  /** Milliseconds between stamped chunks of probe streams. */
  paceMs: number;
  /** Leak check: seconds of mixed load at c=64 on Modelgate (0 = skip). */
  leakSeconds: number;
  /** CPU profile: seconds per scenario under `node --cpu-prof` (0 = skip). */
  profileSeconds: number;
}

/** The plan's unmeasured load as a log line or report reads it, e.g. "6 s of unmeasured load on each system". */
export function steadyStateSummary(plan: Pick<Plan, 'steadyStateSeconds' | 'steadyStateSecondsOf'>): string {
  const others = Object.entries(plan.steadyStateSecondsOf ?? {}) as [SystemName, number][];
  const except = others.map(([name, seconds]) => `${seconds} s on the ${SYSTEM_LABELS[name]}`);
  const exceptions = except.length ? `, except ${except.join(' and ')}` : '';
  return `${plan.steadyStateSeconds} s of unmeasured load on each system${exceptions}`;
}

function envNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return value;
}

export function makePlan(mode: string, env: NodeJS.ProcessEnv = process.env): Plan {
  if (mode !== 'quick' && mode !== 'full') throw new Error(`mode must be quick or full, got "${mode}"`);
  const full = mode === 'full';
  const grid: Plan['grid'] = full
    ? (['json', 'stream', 'prompt64k'] as const).flatMap((scenario) =>
        [1, 16, 64].map((concurrency) => ({ scenario, concurrency })),
      )
    : [
        // c=1 latency comes from the probe in quick runs; the load runs check the throughput targets.
        { scenario: 'json', concurrency: 16 },
        { scenario: 'stream', concurrency: 16 },
      ];
  return {
    mode,
    grid,
    // Three in full mode: the medians then drop one disturbed repetition instead of averaging it in (this shared
    // VM's steal time comes in bursts of minutes).
    reps: envNumber(env, 'BENCH_REPS', full ? 3 : 1),
    // A cold gateway needs tens of seconds of load to reach its steady CPU per request: V8 optimizes on background
    // threads, which compete with the load for the 2 cores (a fresh gateway at c=16 used 0.74, 0.48, then 0.38 ms
    // per request in three consecutive 10 s windows; after 6 s of load a full run's first repetition still measured
    // 0.49 ms where its second measured 0.35). Full runs give every system 20 s. Quick runs give the two gateways
    // 4 s (their probes and warm-ups add more), the pass-through 1 s and the mock, a few lines of code, none: their
    // figures are a smoke check. (Warming two systems at once saved no time: they share the two cores with their
    // load generators and the mock.)
    steadyStateSeconds: envNumber(env, 'BENCH_STEADY_STATE_SECONDS', full ? 20 : 4),
    ...(full ? {} : { steadyStateSecondsOf: { mock: 0, passthrough: 1 } }),
    // Not under 1 s: after a few idle seconds (other systems' turns) the gateway's first second of load ran at a
    // fraction of its throughput (credit leases shrink when idle and grow again on demand).
    warmupSeconds: envNumber(env, 'BENCH_WARMUP_SECONDS', full ? 1.5 : 1),
    measureSeconds: envNumber(env, 'BENCH_MEASURE_SECONDS', full ? 5 : 1),
    loadSampleMs: full ? 1000 : 100,
    probe: {
      scenarios: full ? ['json', 'stream', 'prompt64k'] : ['json', 'stream'],
      seconds: envNumber(env, 'BENCH_PROBE_SECONDS', full ? 2 : 0.5),
      // The mock answers in ~0.1 ms: a bound this high still lets its slices last as long as the others'.
      maxRequests: 20_000,
      // Slices of 250 ms (full) or 125 ms (quick): short against the bursts of foreign load, long enough for a p50
      // of ~10 streams or hundreds of JSON requests.
      rounds: full ? 8 : 4,
      // A few requests after the system sat idle through the other systems' slices (streams take ~20 ms each).
      sliceWarmupRequests: { json: 10, stream: 3, prompt64k: 10 },
      // Unrecorded sequential requests to every system before the first probe (see run-bench.ts).
      warmupSeconds: full ? 1 : 0.5,
      variants: ['routed', 'responses', 'messages'],
    },
    // The throughput targets' configuration. Runs of 3 s after the usual warm-up: short against the bursts, yet
    // thousands of requests each; 9 rounds in full mode give the median of the ratios room to drop a few.
    throughputRounds: {
      scenario: 'json',
      concurrency: 16,
      systems: ['passthrough', 'modelgate', 'portkey'],
      roundsPerRep: envNumber(env, 'BENCH_THROUGHPUT_ROUNDS', full ? 3 : 2),
      warmupSeconds: full ? 1.5 : 1,
      measureSeconds: full ? 3 : 1,
    },
    responsesStream: { concurrency: 16 },
    responseCache: {
      seconds: envNumber(env, 'BENCH_CACHE_SECONDS', full ? 8 : 2),
      maxRequests: 20_000,
      rounds: full ? 8 : 4,
      sliceWarmupRequests: 3,
    },
    // Six variants (three comparisons) of 10 short rounds: 15 s of steady-state load per fresh variant (a cold gateway
    // runs at a fraction of its throughput for seconds), then 1 + 4 s per variant and round, about 6.5 minutes with
    // start-ups, which keeps the full run under ~27 min. Many short rounds pair runs that are seconds apart (this
    // machine's foreign load drifts over seconds) and give the median a confidence interval (scaleRatios).
    scale: {
      rounds: envNumber(env, 'BENCH_SCALE_ROUNDS', full ? 10 : 0),
      steadyStateSeconds: full ? 15 : 2,
      warmupSeconds: 1,
      measureSeconds: envNumber(env, 'BENCH_SCALE_SECONDS', full ? 4 : 2),
    },
    // Ten rows (five lanes × two sizes), two systems: 3 s of steady state each, then 3 rounds of 1 + 2 s per system,
    // about 4 minutes. c=8: the load the figures were taken at; a 400 KB body at c=64 measures the socket buffers.
    lanes: {
      rounds: envNumber(env, 'BENCH_LANES_ROUNDS', full ? 3 : 0),
      steadyStateSeconds: 3,
      warmupSeconds: 1,
      measureSeconds: envNumber(env, 'BENCH_LANES_SECONDS', full ? 2 : 1),
      concurrency: 8,
    },
    paceMs: 1,
    leakSeconds: envNumber(env, 'BENCH_LEAK_SECONDS', full ? 60 : 0),
    profileSeconds: envNumber(env, 'BENCH_PROFILE_SECONDS', full ? 8 : 0),
  };
}
