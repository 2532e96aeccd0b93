// Cost of one request from the upstream's reported usage, in integer nano-dollars.
//
// Token accounting (as adapter.ts defines NormalizedUsage):
//   promptTokens INCLUDES cached reads and cache writes; completionTokens INCLUDES reasoning.
//   uncached = promptTokens − cachedTokens − cacheWriteTokens, floored at 0 (a vendor that reports
//   overlapping counts is never credited back).
//   cost = uncached×input + cached×cachedRead + cacheWrite5m×cachedWrite + cacheWrite1h×cachedWrite1h
//        + completion×output
//        + Σ uses×price×share over PER_USE_FEES (web search requests, the other hosted tools' uses: per-use fees,
//          not per 1M tokens, so added after the division, each rounded half up)
//   where the token part is multiplied by the catalog's factor for each option the vendor says it served
//   (usage.served: OpenAI's priority or flex tier, Anthropic's fast mode or US-only inference; pricing.multipliers),
//   and not the per-request fees: vendors price their tiers and modes per token, their tools per use.
//   where cacheWrite1h is the part of cacheWriteTokens written with a 1-hour TTL (capped at the total) and
//   cacheWrite5m the rest: Anthropic prices a 1-hour write at 2× input, a 5-minute one at 1.25×.
// Prices are nano-dollars per 1M tokens, already converted at catalog load, with the cache-price
// fallback already applied (a model without cache pricing bills cached tokens at its input price;
// see src/catalog/read-pricing.ts).
// Long-prompt tiers: the last tier whose threshold the prompt EXCEEDS (promptTokens >
// abovePromptTokens; the threshold itself stays on the lower tier) prices the whole request.
// Rounding: the sum is computed exactly in (nano-dollars × 1e6) and divided by 1e6 once, at the
// end, rounding half up — so splitting a request into parts never accumulates rounding drift.
import { maxBigInt, minBigInt } from '../core/bigint-min-max.js';
import type { NormalizedUsage } from '../core/generation.js';
import { HOSTED_TOOL_FEES, type HostedToolFee, type ToolUses } from '../core/tool-uses.js';
import { PRICE_OPTIONS, type ServedOptions } from '../core/served-options.js';
import { MULTIPLIER_ONE, type CatalogEntry, type ModelPricing, type PriceSet } from '../catalog/types.js';

const TOKENS_PER_PRICE_UNIT = 1_000_000n;

/** What a request may spend beyond its tokens, reserved before the call (the bound of maxCostNanos). */
export interface ExtraSpend {
  /** Web search requests (a hosted search tool is offered). */
  webSearches?: number;
  /** Uses of the other hosted tools. */
  toolUses?: ToolUses;
  /** The price options the request asks for (a priority tier, fast mode): its tokens are reserved at their factor. */
  options?: ServedOptions;
}

/**
 * The factor on the token prices of the options `served`, as [numerator, denominator]: the product of the catalog's
 * multiplier for each served value it prices (an unpriced value: 1).
 */
export function priceFactor(pricing: ModelPricing, served: ServedOptions | undefined): readonly [bigint, bigint] {
  let num = 1n;
  let den = 1n;
  if (!served || !pricing.multipliers) return [num, den];
  for (const option of PRICE_OPTIONS) {
    const value = served[option];
    const factors = pricing.multipliers[option];
    if (value === undefined || !factors || !Object.hasOwn(factors, value)) continue;
    num *= factors[value];
    den *= MULTIPLIER_ONE;
  }
  return [num, den];
}

function tokens(value: number, field: string): bigint {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`usage.${field} must be a non-negative integer, got ${value}`);
  }
  return BigInt(value);
}

/**
 * A fee charged per use on top of the tokens: how many uses a usage reports, the catalog's price of one use, and the
 * share of that price one billed use costs ([numerator, denominator]).
 */
interface PerUseFee {
  /** Where `uses` reads, for errors. */
  counter: string;
  uses(counts: PerUseCounts): number | undefined;
  price(prices: PriceSet): bigint;
  share: readonly [bigint, bigint];
}

/** The per-use counts of a usage (or of a reservation's upper bound). */
type PerUseCounts = Pick<NormalizedUsage, 'webSearchRequests' | 'toolUses'>;

const WHOLE_PRICE = [1n, 1n] as const;

/**
 * The share of its catalog price one billed use of a hosted tool costs. One tool is priced in a unit larger than what
 * is billed: Anthropic publishes code execution per container-hour (the catalog keeps its figure) and bills at least
 * 5 minutes a container, and the API reports no container time, so each container is billed 1/12 of the hourly price.
 */
const TOOL_SHARE_OF_PRICE: Readonly<Record<HostedToolFee, readonly [bigint, bigint]>> = {
  file_search: WHOLE_PRICE,
  code_interpreter: WHOLE_PRICE,
  code_execution: [5n, 60n],
  maps_grounding: WHOLE_PRICE,
};

/** Every per-use fee, each a usage counter (core/) priced by a catalog field (catalog/read-pricing.ts). */
const PER_USE_FEES: readonly PerUseFee[] = [
  {
    counter: 'webSearchRequests',
    uses: (counts) => counts.webSearchRequests,
    price: (prices) => prices.webSearch,
    share: WHOLE_PRICE,
  },
  ...HOSTED_TOOL_FEES.map(
    (tool): PerUseFee => ({
      counter: `toolUses.${tool}`,
      uses: (counts) => counts.toolUses?.[tool],
      price: (prices) => prices.toolFees[tool],
      share: TOOL_SHARE_OF_PRICE[tool],
    }),
  ),
];

/** Nano-dollars of the per-use fees of `counts` at `prices`, each fee rounded half up. */
function perUseFeeNanos(prices: PriceSet, counts: PerUseCounts): bigint {
  let total = 0n;
  for (const fee of PER_USE_FEES) {
    const n = tokens(fee.uses(counts) ?? 0, fee.counter);
    if (n === 0n) continue;
    const [num, den] = fee.share;
    total += (n * fee.price(prices) * num + den / 2n) / den;
  }
  return total;
}

/** Upper bound of perUseFeeNanos for at most `counts` at the dearest of `priceSets`, each fee rounded up. */
function maxPerUseFeeNanos(priceSets: readonly PriceSet[], counts: PerUseCounts): bigint {
  let total = 0n;
  for (const fee of PER_USE_FEES) {
    const n = tokens(fee.uses(counts) ?? 0, fee.counter);
    if (n === 0n) continue;
    const price = priceSets.reduce((max, prices) => maxBigInt(fee.price(prices), max), 0n);
    const [num, den] = fee.share;
    total += (n * price * num + den - 1n) / den;
  }
  return total;
}

/** Round-half-up division of a non-negative amount by 1e6. */
function perMillionToNanos(total: bigint): bigint {
  return (total + TOKENS_PER_PRICE_UNIT / 2n) / TOKENS_PER_PRICE_UNIT;
}

/** The prices that apply to a request with this many prompt tokens. */
export function selectPriceSet(pricing: ModelPricing, promptTokens: number): PriceSet {
  let chosen: PriceSet = pricing.base;
  for (const tier of pricing.tiers) {
    if (promptTokens > tier.abovePromptTokens) chosen = tier;
  }
  return chosen;
}

/** Cost in nano-dollars of `usage` under `pricing` (used directly for pass reference rates). */
export function costNanosFor(pricing: ModelPricing, usage: NormalizedUsage): bigint {
  const prompt = tokens(usage.promptTokens, 'promptTokens');
  const cached = tokens(usage.cachedTokens, 'cachedTokens');
  const cacheWrite = tokens(usage.cacheWriteTokens, 'cacheWriteTokens');
  const cacheWrite1hRaw = tokens(usage.cacheWrite1hTokens ?? 0, 'cacheWrite1hTokens');
  const cacheWrite1h = minBigInt(cacheWrite1hRaw, cacheWrite);
  const completion = tokens(usage.completionTokens, 'completionTokens');
  const uncachedRaw = prompt - cached - cacheWrite;
  const uncached = uncachedRaw > 0n ? uncachedRaw : 0n;

  const p = selectPriceSet(pricing, usage.promptTokens);
  const total =
    uncached * p.input +
    cached * p.cachedRead +
    (cacheWrite - cacheWrite1h) * p.cachedWrite +
    cacheWrite1h * p.cachedWrite1h +
    completion * p.output;
  const [num, den] = priceFactor(pricing, usage.served);
  const tokenNanos = den === 1n ? perMillionToNanos(total) : roundHalfUp(total * num, den * TOKENS_PER_PRICE_UNIT);
  return tokenNanos + perUseFeeNanos(p, usage);
}

function roundHalfUp(value: bigint, divisor: bigint): bigint {
  return (value * 2n + divisor) / (divisor * 2n);
}

/**
 * Cost in nano-dollars of one request to `entry`. For credits models this is the debit; for free
 * models it is 0; for pass models it is the reference value counted against the quota (never
 * charged — the caller decides by entry.accessMode).
 */
export function costNanos(entry: CatalogEntry, usage: NormalizedUsage): bigint {
  return costNanosFor(entry.pricing, usage);
}

/**
 * Upper bound of costNanos for a request with `promptTokens` of input, at most `maxOutputTokens` of output and the
 * `spend` beyond tokens it may run, for credit reservation before calling upstream. Every prompt token
 * is priced at the highest prompt-side price of any tier — input, or cache write when that is
 * dearer (Anthropic charges 1.25× input to write the cache for 5 minutes, 2× for an hour) — and
 * every output token at the highest output price of any tier, both at the factor of the options the request asks
 * for (the vendor bills the tier it serves, which the request names); every search at the highest search fee of any
 * tier, and at most `spend.toolUses` of the other hosted tools each at its highest fee of any tier.
 * Rounded up, so it is never below the real (half-up rounded) cost at the requested options.
 */
export function maxCostNanos(
  entry: CatalogEntry,
  promptTokens: number,
  maxOutputTokens: number,
  spend: ExtraSpend = {},
): bigint {
  const prompt = tokens(promptTokens, 'promptTokens');
  const output = tokens(maxOutputTokens, 'maxOutputTokens');
  const sets: PriceSet[] = [entry.pricing.base, ...entry.pricing.tiers];
  const max = (pick: (s: PriceSet) => bigint) => sets.reduce((m, s) => maxBigInt(pick(s), m), 0n);
  const promptPrice = max((s) =>
    [s.input, s.cachedRead, s.cachedWrite, s.cachedWrite1h].reduce((a, b) => maxBigInt(b, a)),
  );
  const outputPrice = max((s) => s.output);
  const [num, den] = priceFactor(entry.pricing, spend.options);
  const total = (prompt * promptPrice + output * outputPrice) * num;
  const unit = TOKENS_PER_PRICE_UNIT * den;
  // Most requests offer no hosted tool: with no count to price, every per-use fee is 0.
  const fees =
    spend.webSearches === undefined && spend.toolUses === undefined
      ? 0n
      : maxPerUseFeeNanos(sets, { webSearchRequests: spend.webSearches, toolUses: spend.toolUses });
  return (total + unit - 1n) / unit + fees;
}
