// What a failed check carries out of a fast-check run: the exchange that broke it (and, for stateful runs, the
// steps that led there), turned into a report entry with a curl line and every secret redacted.
import type { CheckFailure, CheckName } from './response-checks.js';
import type { Exchange } from './http-exchange.js';
import { curlLine } from './curl.js';
import { redact } from './request-spec.js';

/** Thrown inside a property so fast-check shrinks towards the smallest input that still fails. */
export class ConformanceFailure extends Error {
  constructor(
    readonly exchange: Exchange,
    readonly failures: CheckFailure[],
    /** Stateful runs: the commands executed up to and including the failing one. */
    readonly steps: string[] = [],
  ) {
    super(failures.map((f) => `${f.check}: ${f.message}`).join('\n'));
    this.name = 'ConformanceFailure';
  }
}

export interface Counterexample {
  message: string;
  /** What the input was (valid request, or what was broken). */
  description: string;
  curl: string;
  status?: number;
  contentType?: string;
  /** Start of the response body, secrets redacted. */
  responseExcerpt: string;
  requestId?: string;
  steps?: string[];
}

const EXCERPT = 600;

export function toCounterexample(
  error: ConformanceFailure,
  check: CheckName,
  baseUrl: string,
  secrets: Iterable<string>,
): Counterexample {
  const ex = error.exchange;
  const secretList = [...secrets];
  const message = error.failures.find((f) => f.check === check)?.message ?? error.message;
  const body = ex.body.length > EXCERPT ? `${ex.body.slice(0, EXCERPT)}… (${ex.body.length} characters)` : ex.body;
  return {
    message: redact(message, secretList),
    description: redact(ex.request.description, secretList),
    curl: redact(curlLine(ex.request, baseUrl), secretList),
    status: ex.status,
    contentType: ex.headers['content-type'],
    responseExcerpt: redact(ex.error ? `(no response: ${ex.error})` : body, secretList),
    requestId: ex.headers['x-request-id'],
    steps: error.steps.length > 0 ? error.steps.map((s) => redact(s, secretList)) : undefined,
  };
}
