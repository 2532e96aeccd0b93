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
import type { Context } from 'koa';
import type { Deps } from '../deps.js';
import type { Principal } from '../auth/principal.js';
import { checkModelAllowed } from '../auth/authorize-route.js';
import { admitRequest, type Admission } from '../billing/accounting.js';
import { GatewayError } from '../core/gateway-error.js';
import { admitRate, takeFreeRequest } from '../limits/admit-rate.js';
import type { Target } from './resolve-target.js';
import type { RoutePlan } from './plan-route.js';

export interface AdmittedRoute {
  /** The candidates this request may use, in order (never empty). */
  targets: Target[];
  admission: Admission;
}

export async function admitRoute(
  deps: Deps,
  ctx: Context,
  principal: Principal,
  plan: RoutePlan,
  requestedMaxTokens: number | undefined,
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
  if (freeCount === 0 || freeCount === targets.length) {
    // One access mode (the common case): as for a single model.
    await admitRate(deps, ctx, principal, targets[0].entry, tokens);
    return { targets, admission: await admitRequest(deps, principal, reservationEntry, tokens, requestedMaxTokens) };
  }
  const paid = targets.filter((t) => !isFree(t));
  const free = targets.filter(isFree);
  // Requests and tokens per minute (a paid entry: the free allowance is decided here, for the whole list).
  await admitRate(deps, ctx, principal, paid[0].entry, tokens);
  const allowance = await takeFreeRequest(deps, principal, deps.now().getTime());
  const usable = allowance.ok ? targets : paid;
  try {
    // The reservation entry is the most expensive candidate, so a paid one.
    return { targets: usable, admission: await admitRequest(deps, principal, reservationEntry, tokens, requestedMaxTokens) };
  } catch (err) {
    // Credits (or the key's USD limit) do not cover the paid models; without the allowance nothing can serve.
    if (!(err instanceof GatewayError && err.status === 402) || !allowance.ok) throw err;
    return { targets: free, admission: await admitRequest(deps, principal, free[0].entry, tokens, requestedMaxTokens) };
  }
}

function isFree(target: Target): boolean {
  return target.entry.accessMode === 'free';
}
