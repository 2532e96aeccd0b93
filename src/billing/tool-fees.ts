// The fees of the hosted tools other than web search (core/tool-uses.ts), on top of the tokens: Σ uses × price, each
// tool in its vendor's unit. One tool is priced in a unit larger than what is billed: Anthropic publishes code execution
// per container-hour (the catalog keeps its figure) and bills at least 5 minutes a container, and the API reports no
// container time, so each container is billed those 5 minutes, 1/12 of the hourly price (docs/metering.md).
import { HOSTED_TOOL_FEES, type HostedToolFee, type ToolUses } from '../core/tool-uses.js';
import type { ToolFeePrices } from '../catalog/types.js';
import { maxBigInt } from '../core/bigint-min-max.js';

/** The share of its catalog price one billed use costs: [numerator, denominator]. */
const SHARE_OF_PRICE: Readonly<Record<HostedToolFee, readonly [bigint, bigint]>> = {
  file_search: [1n, 1n],
  code_interpreter: [1n, 1n],
  // Anthropic's 5-minute minimum of a container-hour.
  code_execution: [5n, 60n],
  maps_grounding: [1n, 1n],
};

function count(value: number | undefined, tool: HostedToolFee): bigint {
  const n = value ?? 0;
  if (!Number.isSafeInteger(n) || n < 0)
    throw new RangeError(`usage.toolUses.${tool} must be a non-negative integer, got ${n}`);
  return BigInt(n);
}

/** Nano-dollars of `uses` at `prices`, each tool rounded half up (exact for every tool billed its whole price). */
export function toolFeeNanos(prices: ToolFeePrices, uses: ToolUses | undefined): bigint {
  if (!uses) return 0n;
  let total = 0n;
  for (const tool of HOSTED_TOOL_FEES) {
    const n = count(uses[tool], tool);
    if (n === 0n) continue;
    const [num, den] = SHARE_OF_PRICE[tool];
    total += (n * prices[tool] * num + den / 2n) / den;
  }
  return total;
}

/** Upper bound of toolFeeNanos for at most `uses` at the dearest of `priceSets`, rounded up. */
export function maxToolFeeNanos(priceSets: readonly ToolFeePrices[], uses: ToolUses | undefined): bigint {
  if (!uses) return 0n;
  let total = 0n;
  for (const tool of HOSTED_TOOL_FEES) {
    const n = count(uses[tool], tool);
    if (n === 0n) continue;
    const price = priceSets.reduce((max, prices) => maxBigInt(prices[tool], max), 0n);
    const [num, den] = SHARE_OF_PRICE[tool];
    total += (n * price * num + den - 1n) / den;
  }
  return total;
}

/** The tools whose fee any of `priceSets` charges. */
export function chargedTools(priceSets: readonly ToolFeePrices[]): HostedToolFee[] {
  return HOSTED_TOOL_FEES.filter((tool) => priceSets.some((prices) => prices[tool] > 0n));
}
