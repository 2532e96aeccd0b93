// Which hosted tools (core/tool-uses.ts) a model charges a fee for: a reservation holds, and a cut-off estimate bills,
// only the uses of those. What a use costs is billing/pricing.ts's PER_USE_FEES.
import { HOSTED_TOOL_FEES, type HostedToolFee } from '../core/tool-uses.js';
import type { ToolFeePrices } from '../catalog/types.js';

/** The tools whose fee any of `priceSets` charges. */
export function chargedTools(priceSets: readonly ToolFeePrices[]): HostedToolFee[] {
  return HOSTED_TOOL_FEES.filter((tool) => priceSets.some((prices) => prices[tool] > 0n));
}
