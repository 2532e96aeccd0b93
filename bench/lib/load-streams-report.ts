// What the load test (bench/load-streams.ts) reports: per round, time to first chunk, stream length, wall time,
// the gateway's peak RSS and CPU, and errors; then the books, account by account: what each account's streams
// reported as their cost against what the gateway charged it. Pure functions over the measured records.
import { percentile, round } from './stats.js';
import type { StreamRecord } from './stream-client.js';

export interface RoundResult {
  variant: string;
  round: number;
  streams: number;
  /** Status 200 and ended with [DONE]. */
  completed: number;
  /** Streams that did not complete, by status (0: no HTTP answer) and first words of the error. */
  failures: Record<string, number>;
  firstChunkMs: { p50: number; p99: number; max: number };
  streamMs: { p50: number; p99: number };
  /** From the first request sent to the last stream's end. */
  wallMs: number;
  /** The gateway's process (absent for the upstream alone): RSS as the round began, and its peak during it. */
  startRssMb?: number;
  peakRssMb?: number;
  cpuSeconds?: number;
  /** Most requests seen waiting for an upstream slot (modelgate_upstream_requests_queued, scraped during the round). */
  maxQueued?: number;
}

export interface RoundExtras {
  startRssMb?: number;
  peakRssMb?: number;
  cpuSeconds?: number;
  maxQueued?: number;
}

export function summarizeRound(
  variant: string,
  roundNumber: number,
  records: readonly StreamRecord[],
  wallMs: number,
  extras: RoundExtras = {},
): RoundResult {
  const completed = records.filter((r) => r.status === 200 && r.done);
  const failures: Record<string, number> = {};
  for (const r of records) {
    if (r.status === 200 && r.done) continue;
    const key = `${r.status}${r.error ? ` ${r.error.slice(0, 60)}` : r.status === 200 ? ' ended without [DONE]' : ''}`;
    failures[key] = (failures[key] ?? 0) + 1;
  }
  const first = records.map((r) => r.firstChunkMs).filter((ms) => Number.isFinite(ms));
  const lengths = completed.map((r) => r.durationMs);
  const ms = (value: number | undefined) => round(value ?? NaN, 0);
  return {
    variant,
    round: roundNumber,
    streams: records.length,
    completed: completed.length,
    failures,
    firstChunkMs: { p50: ms(percentile(first, 50)), p99: ms(percentile(first, 99)), max: ms(percentile(first, 100)) },
    streamMs: { p50: ms(percentile(lengths, 50)), p99: ms(percentile(lengths, 99)) },
    wallMs: ms(wallMs),
    ...extras,
  };
}

/** Reported cost per account: the sum of its streams' usage-chunk costs (streams sent with `keyOwner[keyIndex]`). */
export function reportedCosts(records: readonly StreamRecord[], keyOwner: readonly string[]): Map<string, bigint> {
  const totals = new Map<string, bigint>();
  for (const record of records) {
    if (record.costNanos === undefined) continue;
    const account = keyOwner[record.keyIndex]!;
    totals.set(account, (totals.get(account) ?? 0n) + record.costNanos);
  }
  return totals;
}

export function addCosts(into: Map<string, bigint>, more: ReadonlyMap<string, bigint>): void {
  for (const [account, nanos] of more) into.set(account, (into.get(account) ?? 0n) + nanos);
}

export interface AccountCheck {
  /** Where the charged figures come from: `/credits total_usage`, `credit_ledger debits`. */
  source: string;
  accounts: number;
  /** Accounts whose charge differs from their streams' reported costs, with both figures (nano-dollars). */
  mismatches: { account: string; reportedNanos: string; chargedNanos: string }[];
  reportedTotalNanos: string;
  chargedTotalNanos: string;
}

/** Every account of either side: equal when charged = reported for each, to the nano-dollar. */
export function compareAccounts(
  source: string,
  reported: ReadonlyMap<string, bigint>,
  charged: ReadonlyMap<string, bigint>,
): AccountCheck {
  const accounts = new Set([...reported.keys(), ...charged.keys()]);
  const mismatches: AccountCheck['mismatches'] = [];
  let reportedTotal = 0n;
  let chargedTotal = 0n;
  for (const account of [...accounts].sort()) {
    const r = reported.get(account) ?? 0n;
    const c = charged.get(account) ?? 0n;
    reportedTotal += r;
    chargedTotal += c;
    if (r !== c) mismatches.push({ account, reportedNanos: String(r), chargedNanos: String(c) });
  }
  return {
    source,
    accounts: accounts.size,
    mismatches,
    reportedTotalNanos: String(reportedTotal),
    chargedTotalNanos: String(chargedTotal),
  };
}

export interface LoadResult {
  startedAt: string;
  machine: string;
  streams: number;
  stream: { chunks: number; everyMs: number };
  accounts: number;
  keysPerAccount: number;
  rounds: RoundResult[];
  checks: AccountCheck[];
}

const usd = (nanos: string) => (Number(nanos) / 1e9).toFixed(6);

export function renderLoadReport(result: LoadResult): string {
  const lines = [
    '# Modelgate: concurrent slow streams',
    '',
    `\`make bench-load\`, ${result.startedAt}, ${result.machine}. ${result.streams} streams at once, each ${result.stream.chunks} content chunks ` +
      `${result.stream.everyMs} ms apart (${(result.stream.chunks * result.stream.everyMs) / 1000} s), through one gateway on PostgreSQL to the bench mock; ` +
      `${result.accounts} accounts with ${result.keysPerAccount} keys each, streams spread over the keys.`,
    '',
    '| variant | round | completed | first chunk p50 / p99 / max (ms) | stream p50 / p99 (ms) | all done (ms) | gateway RSS at start → peak (MB) | gateway CPU (s) | most queued | failures |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const r of result.rounds) {
    const failures =
      Object.entries(r.failures)
        .map(([what, n]) => `${n}× ${what}`)
        .join('; ') || '–';
    const opt = (value: number | undefined) => (value === undefined ? '–' : String(value));
    lines.push(
      `| ${r.variant} | ${r.round} | ${r.completed}/${r.streams} | ${r.firstChunkMs.p50} / ${r.firstChunkMs.p99} / ${r.firstChunkMs.max} | ` +
        `${r.streamMs.p50} / ${r.streamMs.p99} | ${r.wallMs} | ${r.peakRssMb === undefined ? '–' : `${opt(r.startRssMb)} → ${r.peakRssMb}`} | ${opt(r.cpuSeconds)} | ${opt(r.maxQueued)} | ${failures} |`,
    );
  }
  lines.push(
    '',
    'Round 1 of each gateway variant is a freshly started gateway (JIT, credential and credit-lease caches cold); the later rounds run warm. ' +
      '"Most queued": the highest `modelgate_upstream_requests_queued` of the scrapes every 250 ms.',
    '',
    '## The books',
    '',
  );
  for (const check of result.checks) {
    const verdict =
      check.mismatches.length === 0
        ? 'every account equal, to the nano-dollar'
        : `**${check.mismatches.length} accounts differ**`;
    lines.push(
      `- ${check.source}: ${check.accounts} accounts, ${usd(check.chargedTotalNanos)} USD charged against ${usd(check.reportedTotalNanos)} USD reported by the streams' usage chunks: ${verdict}.`,
    );
    for (const m of check.mismatches.slice(0, 10))
      lines.push(`  - ${m.account}: reported ${m.reportedNanos}, charged ${m.chargedNanos} nano-USD`);
  }
  lines.push(
    '',
    'One run on a shared 2-core machine: the load generator, the mock and the gateway share the cores, and rounds of the same variant ' +
      'spread by several hundred ms in first-chunk and wall time. Compare variants within a run, not across machines.',
    '',
  );
  return lines.join('\n');
}
