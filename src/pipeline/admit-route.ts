// Step 4 for a planned route: the admission step (admission/admit.ts) over every candidate that may serve, not only
// the first, each bounded by what it can spend on the lane it takes. A key restricted to some models cannot reach
// others through `models`; a `models` list mixing free and paid models leaves out the kind that cannot be admitted.
// The key's rate state comes back with the admission, and with any refusal after the rate step.
import type { Principal } from '../auth/principal.js';
import type { Admission } from '../billing/admission.js';
import type { ExtraSpend } from '../billing/pricing.js';
import type { RateReport } from '../core/rate-report.js';
import type { Target } from '../routing/resolve-target.js';
import type { RoutePlan } from '../routing/plan-route.js';
import type { AdmissionParts } from './admission/admission-ask.js';
import { admit } from './admission/admit.js';

export interface AdmittedRoute {
  /** The candidates this request may use, in order (never empty). */
  targets: Target[];
  admission: Admission;
  /** The key's rate state, to send with the answer. */
  rate: RateReport;
}

/** What a request asks of admission beyond its plan. */
export interface RouteBounds {
  /** The output-token cap the client asked for (RequestFacts.maxOutputTokens). */
  requestedMaxTokens?: number;
  /** What an attempt at this candidate may spend beyond tokens (pipeline/candidate-spend.ts); none when absent. */
  spendOf?: (target: Target) => ExtraSpend;
  /** The request's rate state when it was already counted (GenerationClient.requestCounted). */
  requestCounted?: RateReport;
}

export async function admitRoute(
  parts: AdmissionParts,
  principal: Principal,
  plan: RoutePlan,
  bounds: RouteBounds = {},
): Promise<AdmittedRoute> {
  const estimatedPromptTokens = plan.checked.estimatedPromptTokens;
  const admitted = await admit(parts, {
    path: 'generation',
    principal,
    candidates: plan.targets,
    estimatedTokens: estimatedPromptTokens,
    requestCounted: bounds.requestCounted,
    freeAllowance: true,
    spend: {
      kind: 'bound',
      requestOf: (target) => ({
        estimatedPromptTokens,
        requestedMaxTokens: bounds.requestedMaxTokens,
        spend: bounds.spendOf?.(target) ?? {},
      }),
    },
  });
  // A bound always reserves (or admits a free model): the step leaves no generation without an admission.
  return { targets: admitted.candidates, admission: admitted.admission!, rate: admitted.rate };
}
