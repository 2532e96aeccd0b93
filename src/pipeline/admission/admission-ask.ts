// What a path asks of admission (admit.ts) and what it gets: one shape for every path that reaches a model, so the
// rules (admission-rules.ts) read the same thing whoever asks.
import type { Principal } from '../../auth/principal.js';
import type { Admission, AdmissionDeps, ReservationRequest } from '../../billing/admission.js';
import type { SessionAsk } from '../../billing/budget-admission.js';
import type { CatalogEntry } from '../../catalog/types.js';
import type { FreeRequestAllowance } from '../../limits/free-requests.js';
import type { RateReport } from '../../core/rate-report.js';
import type { RateParts } from '../../limits/admit-rate.js';

/** What admission uses: the rate limiter and free allowance, the credit leases and the database. */
export interface AdmissionParts extends RateParts, AdmissionDeps {
  freeRequests: FreeRequestAllowance;
  config: RateParts['config'] & AdmissionDeps['config'];
  /** The one composed step (server.ts builds it with composeAdmission()). */
  admission: AdmissionStep;
}

/** Which path asks: for rules that treat one apart, and for what a refusal is counted as. */
export type AdmissionPath = 'generation' | 'cache-read' | 'cache-hit' | 'embeddings' | 'count-tokens';

/**
 * What a path may spend, which decides the last rule:
 * - `none`: nothing (token counting generates nothing);
 * - `subscription`: a pass/ candidate's live subscription, held at no quota (a cache read, before a hit is known);
 * - `amount`: a cost known before the call (embeddings' input, a priced hit);
 * - `bound`: each candidate's upper bound, output and tools' fees included (a generation).
 */
export type SpendAsk<T> =
  | { kind: 'none' }
  | { kind: 'subscription' }
  | { kind: 'amount'; amountNanos: bigint }
  | { kind: 'bound'; requestOf: (candidate: T) => ReservationRequest };

/** A candidate endpoint or model: what admission reads of it is its catalog entry. */
export interface Candidate {
  entry: CatalogEntry;
}

export interface AdmissionAsk<T extends Candidate> {
  path: AdmissionPath;
  principal: Principal;
  /** The candidates that may serve, in order (never empty). */
  candidates: readonly T[];
  /** Counted against the per-minute token limits (0 for a call that generates nothing). */
  estimatedTokens: number;
  /** The request's rate state when it was already counted (a response-cache read): the rate step is skipped. */
  requestCounted?: RateReport;
  /** Whether a free candidate takes one request from the free-model daily allowance. */
  freeAllowance: boolean;
  spend: SpendAsk<T>;
  /** The session the request names (its door's session key), with the budget its header gives. */
  session?: SessionAsk;
}

export interface Admitted<T extends Candidate> {
  /** The candidates that may serve after admission (never empty): a refused kind of `models` is left out. */
  candidates: T[];
  /** What was held; none when the path spends nothing (or a subscription hold found no pass/ candidate). */
  admission?: Admission;
  /** The key's rate state, to send with the answer (as its door's rate-limit headers). */
  rate: RateReport;
}

/** What the rules read and decide, in order. */
export interface AdmissionState<T extends Candidate> {
  ask: AdmissionAsk<T>;
  candidates: T[];
  rate: RateReport;
  /** The free-model allowance was taken and granted (a mixed `models` then keeps its free candidates). */
  freeGranted?: boolean;
  admission?: Admission;
}

/** One rule: refuses by throwing a GatewayError, or narrows or fills the state. */
export type AdmissionRule = <T extends Candidate>(
  parts: AdmissionParts,
  state: AdmissionState<T>,
) => void | Promise<void>;

export type AdmissionStep = <T extends Candidate>(parts: AdmissionParts, ask: AdmissionAsk<T>) => Promise<Admitted<T>>;
