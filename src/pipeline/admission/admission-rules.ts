// The rules of admission, in the one order every path takes (admit.ts): the key's allow-list, its per-minute limits,
// the free-model daily allowance, then what the request may spend (credits or pass quota, fees included). Cheap
// refusals come first, so a request refused for its model counts against no limit and holds nothing.
// A `models` list mixing free and paid models (pass/ cannot be mixed, see plan-route.ts) is admitted so that neither
// kind blocks the other:
// - the free-model allowance is taken when any free model may serve (also as a fallback behind a paid one, or the
//   allowance could be bypassed); exhausted, the free models are dropped and the paid ones serve;
// - credits cover the most expensive paid candidate; when they do not, the paid models are dropped and the free ones
//   serve alone (a free model needs no credits, as on OpenRouter).
// A taken allowance may end up unused when a paid model serves: the allowance is an abuse limit, so it errs on
// counting a request too many, never one too few.
import { checkModelAllowed } from '../../auth/authorize-route.js';
import {
  admitAmount,
  admitRequest,
  releaseAdmission,
  type Admission,
  reservationOutputTokens,
  type ReservationRequest,
} from '../../billing/admission.js';
import { maxCostNanos } from '../../billing/pricing.js';
import { admitBudgets, directBudgets, type BudgetHolds } from '../../billing/budget-admission.js';
import { GatewayError } from '../../core/gateway-error.js';
import { admitRequestRate, freeLimitError, takeFreeRequest } from '../../limits/admit-rate.js';
import type { AdmissionParts, AdmissionRule, AdmissionState, Candidate } from './admission-ask.js';

/** The key's allow-list (and a management key's refusal) for every candidate that may serve. */
export const allowList: AdmissionRule = (_parts, state) => {
  let previous: string | undefined;
  for (const { entry } of state.candidates) {
    if (entry.id !== previous) checkModelAllowed(state.ask.principal, entry.id);
    previous = entry.id;
  }
};

/** One request and its token estimate against the key's and its account's per-minute limits, once per request. */
export const rateLimits: AdmissionRule = (parts, state) => {
  if (state.ask.requestCounted) return;
  const admitted = admitRequestRate(parts, state.ask.principal, state.ask.estimatedTokens);
  // The in-process limiter answers synchronously: no extra turn of the event loop for it.
  if (!(admitted instanceof Promise)) {
    state.rate = admitted;
    return;
  }
  return admitted.then((rate) => {
    state.rate = rate;
  });
};

/** One request from the free-model daily allowance when a free candidate may serve and the path takes from it. */
export const freeAllowance: AdmissionRule = (parts, state) => {
  if (!state.ask.freeAllowance || !state.candidates.some(isFree)) return;
  return takeFreeRequest(parts, state.ask.principal, parts.now().getTime()).then((decision) => {
    if (decision.ok) {
      state.freeGranted = true;
      return;
    }
    const paid = state.candidates.filter((candidate) => !isFree(candidate));
    if (paid.length === 0) throw freeLimitError(parts, decision);
    state.candidates = paid;
  });
};

/** What the path may spend: credits or pass quota for its upper bound (tools' fees included), or a subscription. */
export const reserve: AdmissionRule = async (parts, state) => {
  const { spend, principal } = state.ask;
  if (spend.kind === 'none') return;
  if (spend.kind === 'bound') return reserveBound(parts, state, spend.requestOf);
  const { entry } = state.candidates[0];
  if (spend.kind === 'amount') state.admission = await admitAmount(parts, principal, entry, spend.amountNanos);
  // A pass/ model's live subscription, held at no quota; other models need nothing yet.
  else if (entry.accessMode === 'pass') state.admission = await admitAmount(parts, principal, entry, 0n);
};

/**
 * What the request reserved must also fit in its organization's, member's and session's budgets (the key's own
 * budget was held before the credits): refused, the credits go back and the 402 names the budget. Its answer's headers
 * say the tightest remainder and the session's spend.
 */
export const budgets: AdmissionRule = (parts, state) => {
  const { admission, ask } = state;
  const { principal, session } = ask;
  const rules = principal.budgets;
  const limited = rules?.organization != null || rules?.member != null;
  // No budget and no session: not even a turn of the event loop.
  if (admission === undefined || (!limited && session === undefined && admission.keyHold === undefined)) return;
  return admitBudgetsOf(parts, state, admission);
};

async function admitBudgetsOf<T extends Candidate>(
  parts: AdmissionParts,
  state: AdmissionState<T>,
  admission: Admission,
): Promise<void> {
  const { principal, session } = state.ask;
  const amountNanos = admission.mode === 'credits' ? admission.reservedNanos : 0n;
  let holds: BudgetHolds | undefined;
  try {
    holds = await admitBudgets(parts.leases?.budgets ?? directBudgets(parts.db), {
      principal,
      session,
      amountNanos,
      now: parts.now(),
    });
  } catch (err) {
    await releaseAdmission(parts.db, admission);
    throw err;
  }
  // The key's own limit is held with the credits: the tightest remainder counts it too.
  const remainingNanos = minDefined(holds?.remainingNanos, admission.keyHold?.remainingNanos);
  admission.budgets = holds ?? (remainingNanos === undefined ? undefined : { holds: [] });
  if (admission.budgets) admission.budgets.remainingNanos = remainingNanos;
}

function minDefined(a: bigint | undefined, b: bigint | undefined): bigint | undefined {
  if (a === undefined) return b;
  return b === undefined || a < b ? a : b;
}

/** The order every path is admitted in. */
export const ADMISSION_RULES: readonly AdmissionRule[] = [allowList, rateLimits, freeAllowance, reserve, budgets];

async function reserveBound<T extends Candidate>(
  parts: AdmissionParts,
  state: AdmissionState<T>,
  requestOf: (candidate: T) => ReservationRequest,
): Promise<void> {
  const { principal } = state.ask;
  const { candidates } = state;
  const paid = candidates.filter((candidate) => !isFree(candidate));
  // One access mode is the common case: admitted as for a single model.
  if (paid.length === 0 || paid.length === candidates.length) {
    const worst = dearest(candidates, requestOf);
    state.admission = await admitRequest(parts, principal, worst.candidate.entry, worst.request);
    return;
  }
  try {
    // The most expensive candidate is a paid one.
    const worst = dearest(paid, requestOf);
    state.admission = await admitRequest(parts, principal, worst.candidate.entry, worst.request);
  } catch (err) {
    // Credits (or the key's USD limit) do not cover the paid models; without the allowance nothing can serve.
    if (!(err instanceof GatewayError && err.status === 402) || !state.freeGranted) throw err;
    const free = candidates.filter(isFree);
    const first = dearest(free.slice(0, 1), requestOf);
    state.admission = await admitRequest(parts, principal, first.candidate.entry, first.request);
    state.candidates = free;
  }
}

/**
 * The candidate whose worst case costs most, with what admission reserves for it: what admission reserves (credits)
 * or holds (pass quota), whichever candidate serves. The first of equals wins. Each candidate's worst case counts
 * what it can spend beyond tokens on the lane it takes (a web search the native chat lane leaves out is not reserved).
 */
function dearest<T extends Candidate>(
  candidates: readonly T[],
  requestOf: (candidate: T) => ReservationRequest,
): { candidate: T; request: ReservationRequest } {
  let best = { candidate: candidates[0], request: requestOf(candidates[0]) };
  if (candidates.length === 1) return best;
  const worst = ({ candidate: { entry }, request }: typeof best) =>
    maxCostNanos(
      entry,
      request.estimatedPromptTokens,
      reservationOutputTokens(entry, request.requestedMaxTokens, request.estimatedPromptTokens),
      request.spend,
    );
  let most = worst(best);
  for (const candidate of candidates.slice(1)) {
    const next = { candidate, request: requestOf(candidate) };
    const cost = worst(next);
    if (cost > most) {
      most = cost;
      best = next;
    }
  }
  return best;
}

function isFree(candidate: Candidate): boolean {
  return candidate.entry.accessMode === 'free';
}
