// Step 4 for a planned route: rate limits, the key's model allow-list, then credits or quota, over every candidate
// that may serve, not only the first. A key restricted to some models cannot reach others through `models`; and
// `models` mixing free and paid models (pass/ cannot be mixed, see plan-route.ts) is admitted so that neither kind
// blocks the other:
// - the free-model daily allowance is taken when any free model may serve (also as a fallback behind a paid one,
//   or the allowance could be bypassed); exhausted, the free models are dropped and the paid ones serve;
// - credits cover the most expensive paid candidate; when they do not, the paid models are dropped and the free
//   ones serve alone (a free model needs no credits, as on OpenRouter). Each candidate's worst case counts what it can
//   spend beyond tokens on the lane it takes (a web search the native chat lane leaves out is not reserved for it).
// A taken allowance may end up unused when a paid model serves: the allowance is an abuse limit, so it errs on
// counting a request too many, never one too few.
// The key's X-RateLimit-* headers come back with the admission, and with any refusal after the rate step.
import type { Principal } from '../auth/principal.js';
import { checkModelAllowed } from '../auth/authorize-route.js';
import {
  admitRequest,
  reservationOutputTokens,
  type Admission,
  type AdmissionDeps,
  type ReservationRequest,
} from '../billing/admission.js';
import { maxCostNanos, type ExtraSpend } from '../billing/pricing.js';
import { GatewayError } from '../core/gateway-error.js';
import type { FreeRequestAllowance } from '../limits/free-requests.js';
import { admitRate, takeFreeRequest, withRateHeaders, type RateHeaders, type RateParts } from '../limits/admit-rate.js';
import type { Target } from '../routing/resolve-target.js';
import type { RoutePlan } from '../routing/plan-route.js';

export interface AdmittedRoute {
  /** The candidates this request may use, in order (never empty). */
  targets: Target[];
  admission: Admission;
  /** To send with the answer. */
  headers: RateHeaders;
}

/** What admission uses: the rate limiter and free allowance, the credit leases and the database. */
export type AdmissionParts = RateParts & AdmissionDeps & { freeRequests: FreeRequestAllowance };

/** What a request asks of admission beyond its plan. */
export interface RouteBounds {
  /** The output-token cap the client asked for (RequestFacts.maxOutputTokens). */
  requestedMaxTokens?: number;
  /** What an attempt at this candidate may spend beyond tokens (pipeline/candidate-spend.ts); none when absent. */
  spendOf?: (target: Target) => ExtraSpend;
  /** The request's rate headers when it was already counted (GenerationClient.requestCounted). */
  requestCounted?: RateHeaders;
}

export async function admitRoute(
  parts: AdmissionParts,
  principal: Principal,
  plan: RoutePlan,
  bounds: RouteBounds = {},
): Promise<AdmittedRoute> {
  const { targets } = plan;
  const tokens = plan.checked.estimatedPromptTokens;
  if (targets.length > 1) {
    let previous: string | undefined;
    for (const target of targets) {
      if (target.entry.id !== previous) checkModelAllowed(principal, target.entry.id);
      previous = target.entry.id;
    }
  }
  const freeCount = targets.length > 1 ? targets.filter(isFree).length : 0;
  // One access mode is the common case: admitted as for a single model.
  const mixed = freeCount > 0 && freeCount < targets.length;
  // Requests and tokens per minute (mixed: a paid entry, the free allowance is decided below, for the whole list).
  const headers = await admitRate(
    parts,
    principal,
    mixed ? targets.find((t) => !isFree(t))!.entry : targets[0].entry,
    tokens,
    bounds.requestCounted,
  );
  try {
    if (!mixed) {
      const worst = dearest(targets, tokens, bounds);
      return { targets, admission: await admitRequest(parts, principal, worst.target.entry, worst.request), headers };
    }
    return { ...(await admitMixed(parts, principal, plan, bounds)), headers };
  } catch (err) {
    throw withRateHeaders(err, headers);
  }
}

async function admitMixed(
  parts: AdmissionParts,
  principal: Principal,
  plan: RoutePlan,
  bounds: RouteBounds,
): Promise<Omit<AdmittedRoute, 'headers'>> {
  const { targets } = plan;
  const tokens = plan.checked.estimatedPromptTokens;
  const paid = targets.filter((t) => !isFree(t));
  const free = targets.filter(isFree);
  const allowance = await takeFreeRequest(parts, principal, parts.now().getTime());
  const usable = allowance.ok ? targets : paid;
  try {
    // The most expensive candidate is a paid one.
    const worst = dearest(paid, tokens, bounds);
    return { targets: usable, admission: await admitRequest(parts, principal, worst.target.entry, worst.request) };
  } catch (err) {
    // Credits (or the key's USD limit) do not cover the paid models; without the allowance nothing can serve.
    if (!(err instanceof GatewayError && err.status === 402) || !allowance.ok) throw err;
    const first = dearest(free.slice(0, 1), tokens, bounds);
    return { targets: free, admission: await admitRequest(parts, principal, first.target.entry, first.request) };
  }
}

/**
 * The candidate whose worst case costs most, with what admission reserves for it: what admission reserves (credits)
 * or holds (pass quota), whichever candidate serves. The first of equals wins.
 */
function dearest(
  targets: readonly Target[],
  tokens: number,
  bounds: RouteBounds,
): { target: Target; request: ReservationRequest } {
  const requestOf = (target: Target): ReservationRequest => ({
    estimatedPromptTokens: tokens,
    requestedMaxTokens: bounds.requestedMaxTokens,
    spend: bounds.spendOf?.(target) ?? {},
  });
  let best = { target: targets[0], request: requestOf(targets[0]) };
  if (targets.length === 1) return best;
  const worst = ({ target, request }: typeof best) =>
    maxCostNanos(
      target.entry,
      tokens,
      reservationOutputTokens(target.entry, request.requestedMaxTokens, tokens),
      request.spend,
    );
  let most = worst(best);
  for (const target of targets.slice(1)) {
    const candidate = { target, request: requestOf(target) };
    const cost = worst(candidate);
    if (cost > most) {
      most = cost;
      best = candidate;
    }
  }
  return best;
}

function isFree(target: Target): boolean {
  return target.entry.accessMode === 'free';
}
