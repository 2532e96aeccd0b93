// Step 4 for a planned route: rate limits, the key's model allow-list, then credits or quota, over every candidate
// that may serve, not only the first. A key restricted to some models cannot reach others through `models`; and
// `models` mixing free and paid models (pass/ cannot be mixed, see plan-route.ts) is admitted so that neither kind
// blocks the other:
// - the free-model daily allowance is taken when any free model may serve (also as a fallback behind a paid one,
//   or the allowance could be bypassed); exhausted, the free models are dropped and the paid ones serve;
// - credits cover the most expensive paid candidate; when they do not, the paid models are dropped and the free
//   ones serve alone (a free model needs no credits, as on OpenRouter).
// A taken allowance may end up unused when a paid model serves: the allowance is an abuse limit, so it errs on
// counting a request too many, never one too few.
// The key's X-RateLimit-* headers come back with the admission, and with any refusal after the rate step.
import type { Principal } from '../auth/principal.js';
import { checkModelAllowed } from '../auth/authorize-route.js';
import { admitRequest, type Admission, type AdmissionDeps } from '../billing/accounting.js';
import { GatewayError } from '../core/gateway-error.js';
import type { ToolUses } from '../core/tool-uses.js';
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

export async function admitRoute(
  parts: AdmissionParts,
  principal: Principal,
  plan: RoutePlan,
  requestedMaxTokens: number | undefined,
  /** Web search requests to reserve for (RequestFacts.maxWebSearches). */
  maxWebSearches = 0,
  /** Uses of the other hosted tools to reserve for (RequestFacts.maxToolUses). */
  maxToolUses?: ToolUses,
  /** The request's rate headers when it was already counted (GenerationClient.requestCounted). */
  requestCounted?: RateHeaders,
): Promise<AdmittedRoute> {
  const { targets, reservationEntry } = plan;
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
  const headers = await admitRate(parts, principal, mixed ? targets.find((t) => !isFree(t))!.entry : targets[0].entry, tokens, requestCounted);
  try {
    if (!mixed) return { targets, admission: await admitRequest(parts, principal, reservationEntry, tokens, requestedMaxTokens, maxWebSearches, maxToolUses), headers };
    return { ...(await admitMixed(parts, principal, plan, requestedMaxTokens, maxWebSearches, maxToolUses)), headers };
  } catch (err) {
    throw withRateHeaders(err, headers);
  }
}

async function admitMixed(
  parts: AdmissionParts,
  principal: Principal,
  plan: RoutePlan,
  requestedMaxTokens: number | undefined,
  maxWebSearches: number,
  maxToolUses: ToolUses | undefined,
): Promise<Omit<AdmittedRoute, 'headers'>> {
  const { targets, reservationEntry } = plan;
  const tokens = plan.checked.estimatedPromptTokens;
  const paid = targets.filter((t) => !isFree(t));
  const free = targets.filter(isFree);
  const allowance = await takeFreeRequest(parts, principal, parts.now().getTime());
  const usable = allowance.ok ? targets : paid;
  try {
    // The reservation entry is the most expensive candidate, so a paid one.
    return { targets: usable, admission: await admitRequest(parts, principal, reservationEntry, tokens, requestedMaxTokens, maxWebSearches, maxToolUses) };
  } catch (err) {
    // Credits (or the key's USD limit) do not cover the paid models; without the allowance nothing can serve.
    if (!(err instanceof GatewayError && err.status === 402) || !allowance.ok) throw err;
    return { targets: free, admission: await admitRequest(parts, principal, free[0].entry, tokens, requestedMaxTokens, maxWebSearches, maxToolUses) };
  }
}

function isFree(target: Target): boolean {
  return target.entry.accessMode === 'free';
}
