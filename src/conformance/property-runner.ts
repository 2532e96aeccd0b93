// Runs one property (an operation × an input kind) against the deployment and reports every check separately:
// when a check fails, its shrunk counterexample is recorded and the property runs again with that check set aside,
// so one failing check does not hide another. Runs are bounded by a count and by time.
import fc from 'fast-check';
import type { Operation } from './openapi-document.js';
import { describeOperation } from './openapi-document.js';
import type { Sender } from './http-exchange.js';
import type { RequestSpec } from './request-spec.js';
import { checkExchange, RESPONSE_CHECKS, STREAM_CHECKS, type CheckContext, type CheckName } from './response-checks.js';
import { streamsEvents } from './stream-checks.js';
import { ConformanceFailure, toCounterexample } from './counterexample.js';
import type { CheckResult } from './report.js';

export type InputKind = 'valid' | 'invalid' | 'unauthorized';

const CHECKS_BY_KIND: Record<InputKind, CheckName[]> = {
  valid: [...RESPONSE_CHECKS],
  invalid: [...RESPONSE_CHECKS, 'negative_data_rejection'],
  unauthorized: [...RESPONSE_CHECKS, 'ignored_auth'],
};

const KIND_LABEL: Record<InputKind, string> = {
  valid: 'valid inputs',
  invalid: 'invalid inputs',
  unauthorized: 'bad credentials',
};

export interface PropertyEnvironment {
  sender: Sender;
  checks: CheckContext;
  numRuns: number;
  seed: number;
  timeLimitMs: number;
  /** Values to redact from every printed text (the API key, keys created during the run). */
  secrets: Set<string>;
}

/** The checks a property reports: stream checks only where the operation documents an event stream. */
export function checksFor(op: Operation, kind: InputKind): CheckName[] {
  return kind !== 'unauthorized' && streamsEvents(op)
    ? [...CHECKS_BY_KIND[kind], ...STREAM_CHECKS]
    : CHECKS_BY_KIND[kind];
}

export function targetName(op: Operation, kind: InputKind): string {
  return `${describeOperation(op)} [${KIND_LABEL[kind]}]`;
}

export async function runProperty(
  env: PropertyEnvironment,
  op: Operation,
  kind: InputKind,
  arbitrary: fc.Arbitrary<RequestSpec>,
): Promise<CheckResult[]> {
  const target = targetName(op, kind);
  const checks = checksFor(op, kind);
  const failed = new Map<CheckName, CheckResult>();
  const deadline = Date.now() + env.timeLimitMs;
  let runs = 0;
  let note: string | undefined;
  for (let attempt = 0; failed.size < checks.length; attempt++) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) break;
    const property = fc.asyncProperty(arbitrary, async (spec) => {
      const exchange = await env.sender.send(spec);
      const failures = checkExchange(env.checks, op, exchange).filter(
        (f) => checks.includes(f.check) && !failed.has(f.check),
      );
      if (failures.length > 0) throw new ConformanceFailure(exchange, failures);
    });
    const details = await fc.check(property, {
      numRuns: env.numRuns,
      seed: env.seed + attempt,
      plugins: [fc.interruptAfterTimeLimit(remaining)],
    });
    runs += details.numRuns;
    if (!details.failed) {
      if (details.interrupted) note = `time limit reached after ${runs} runs`;
      break;
    }
    const error = details.errorInstance;
    if (!(error instanceof ConformanceFailure)) {
      // A bug in the runner or its generators, not in the server: say so rather than blame a check.
      throw new Error(
        `conformance runner error on ${target}: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    for (const f of error.failures) {
      failed.set(f.check, {
        check: f.check,
        target,
        outcome: 'failed',
        runs,
        counterexample: toCounterexample(error, f.check, env.sender.baseUrl, env.secrets),
      });
    }
  }
  return checks.map(
    (check) =>
      failed.get(check) ??
      (runs === 0
        ? { check, target, outcome: 'skipped', runs, note: 'time limit reached before the first run' }
        : { check, target, outcome: 'passed', runs, note }),
  );
}
