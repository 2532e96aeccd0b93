// Price blocks of catalog entries: USD per 1M tokens in the file, integer nano-dollars per 1M tokens
// in memory. Converted once here, at load.
//
// Cache-price fallback rule (one rule, applied here so billing stays a plain multiply-and-add):
//   a `cached_read` or `cached_write` that is 0 or omitted, on a block whose `input` is > 0, means
//   "the vendor publishes no separate cache price": those tokens are billed at that block's
//   `input` price. Examples: OpenAI and DeepSeek bill cache writes as ordinary input; Mistral
//   publishes no cache-read discount. A block with input 0 keeps 0 everywhere (free models).
//   A `cached_write_1h` that is 0 or omitted means the vendor has one cache-write price whatever the lifetime:
//   1-hour writes cost what `cached_write` (after its own fallback) costs. Anthropic's entries name it (2× input).
//
// `web_search` is not a token price: USD per web search request the vendor runs for a hosted search tool (OpenRouter's
// `pricing.web_search`), held as nano-dollars per request. It does not depend on the prompt's length, so a tier that
// omits it keeps the base block's (a tier that named no fee must not make searches free).
// The other hosted tools' fees are read the same way, one key per tool, named as core/tool-uses.ts names the tool, in
// the unit TOOL_FEE_UNITS gives (code_execution is per container-hour, Anthropic's unit; billing/pricing.ts charges
// its 5-minute minimum a container).
//
// `multipliers` (base block only: they apply to every tier) are factors on the token prices for an option's served
// value, by the vendor's own names (core/served-options.ts): `{"service_tier": {"priority": 2.5, "flex": 0.5}}`,
// `{"speed": {"fast": 2}, "inference_geo": {"us": 1.1}}`. Held in billionths.
import { usdToNanos } from '../core/money.js';
import { HOSTED_TOOL_FEES, type HostedToolFee } from '../core/tool-uses.js';
import { PRICE_OPTIONS, isPricedValue, type PriceOption } from '../core/served-options.js';
import type { ModelPricing, PriceMultipliers, PriceSet, PriceTier, ToolFeePrices } from './types.js';
import { fail, readInteger, readObject, rejectUnknownKeys, type JsonObject } from './read-fields.js';

const PRICE_KEYS = [
  'input',
  'output',
  'cached_read',
  'cached_write',
  'cached_write_1h',
  'web_search',
  ...HOSTED_TOOL_FEES,
] as const;
const BASE_KEYS = [...PRICE_KEYS, 'multipliers'] as const;
const TIER_KEYS = ['above_prompt_tokens', ...PRICE_KEYS] as const;

/** Largest accepted list price, USD per 1M tokens: a sanity bound against unit mistakes
 *  (a per-token price pasted as per-1M would be far below; per-1B far above). */
const MAX_USD_PER_MILLION = 100_000;

function readPrice(obj: JsonObject, key: string, where: string, required: boolean): bigint {
  const v = obj[key];
  if (v === undefined && !required) return 0n;
  const isDecimalString = typeof v === 'string' && /^\d+(\.\d+)?$/.test(v.trim());
  if (!(typeof v === 'number' && Number.isFinite(v)) && !isDecimalString) {
    fail(where, `${key} must be a non-negative number (USD per 1M tokens)`);
  }
  if (Number(v) < 0) fail(where, `${key} must be a non-negative number (USD per 1M tokens)`);
  if (Number(v) > MAX_USD_PER_MILLION)
    fail(where, `${key} is above ${MAX_USD_PER_MILLION} USD per 1M tokens; check the unit`);
  return usdToNanos(v as number | string);
}

/** Largest accepted per-call fee, USD: vendors charge cents a search; a per-1K price pasted as per-call is above. */
const MAX_USD_PER_CALL = 1;

function readPerCallPrice(obj: JsonObject, key: string, where: string, unit = 'request'): bigint | undefined {
  const v = obj[key];
  if (v === undefined) return undefined;
  const isDecimalString = typeof v === 'string' && /^\d+(\.\d+)?$/.test(v.trim());
  if (!(typeof v === 'number' && Number.isFinite(v) && v >= 0) && !isDecimalString) {
    fail(where, `${key} must be a non-negative number (USD per ${unit})`);
  }
  if (Number(v) > MAX_USD_PER_CALL)
    fail(where, `${key} is above ${MAX_USD_PER_CALL} USD per ${unit}; check the unit (USD per ${unit}, not per 1K)`);
  return usdToNanos(v as number | string);
}

/** The unit each tool's catalog price is per (core/tool-uses.ts). */
const TOOL_FEE_UNITS: Readonly<Record<HostedToolFee, string>> = {
  file_search: 'call',
  code_interpreter: '1 GB container',
  code_execution: 'container-hour',
  maps_grounding: 'grounded prompt',
};

const NO_TOOL_FEES = Object.fromEntries(HOSTED_TOOL_FEES.map((tool) => [tool, 0n])) as ToolFeePrices;

function readToolFees(obj: JsonObject, where: string, inherited: ToolFeePrices): ToolFeePrices {
  const fees = { ...inherited };
  for (const tool of HOSTED_TOOL_FEES)
    fees[tool] = readPerCallPrice(obj, tool, where, TOOL_FEE_UNITS[tool]) ?? inherited[tool];
  return fees;
}

function readPriceSet(
  obj: JsonObject,
  where: string,
  inheritedWebSearch = 0n,
  inheritedToolFees = NO_TOOL_FEES,
): PriceSet {
  const input = readPrice(obj, 'input', where, true);
  const output = readPrice(obj, 'output', where, true);
  const cachedRead = readPrice(obj, 'cached_read', where, false);
  const cachedWrite = readPrice(obj, 'cached_write', where, false) || input;
  const cachedWrite1h = readPrice(obj, 'cached_write_1h', where, false);
  return {
    input,
    output,
    cachedRead: cachedRead === 0n ? input : cachedRead,
    cachedWrite,
    cachedWrite1h: cachedWrite1h === 0n ? cachedWrite : cachedWrite1h,
    webSearch: readPerCallPrice(obj, 'web_search', where) ?? inheritedWebSearch,
    toolFees: readToolFees(obj, where, inheritedToolFees),
  };
}

/** Largest accepted price multiplier: vendors' premiums are a few times the standard price (fast mode up to 6×). */
const MAX_MULTIPLIER = 100;

function readMultipliers(raw: unknown, where: string): PriceMultipliers | undefined {
  if (raw === undefined) return undefined;
  const at = `${where} multipliers`;
  const obj = readObject(raw, at);
  rejectUnknownKeys(obj, PRICE_OPTIONS, at);
  const out: Partial<Record<PriceOption, Readonly<Record<string, bigint>>>> = {};
  for (const option of PRICE_OPTIONS) {
    if (obj[option] === undefined) continue;
    const values = readObject(obj[option], `${at} ${option}`);
    // No prototype: a vendor's value ("constructor") is looked up here.
    const factors: Record<string, bigint> = Object.create(null) as Record<string, bigint>;
    for (const [value, factor] of Object.entries(values)) {
      // A standard value (OpenAI's `default`, Anthropic's `global`) is the standard price by definition.
      if (!isPricedValue(option, value))
        fail(`${at} ${option}`, `"${value}" is the standard value; it has no multiplier`);
      const isDecimalString = typeof factor === 'string' && /^\d+(\.\d+)?$/.test(factor.trim());
      const isNumber = typeof factor === 'number' && Number.isFinite(factor);
      if (!(isNumber || isDecimalString) || Number(factor) <= 0 || Number(factor) > MAX_MULTIPLIER) {
        fail(
          `${at} ${option}`,
          `${value} must be a number above 0 and at most ${MAX_MULTIPLIER} (a factor on the token prices)`,
        );
      }
      // usdToNanos is the exact decimal reader: a factor is held in billionths, as a USD amount is in nano-dollars.
      factors[value] = usdToNanos(factor as number | string);
    }
    if (Object.keys(factors).length > 0) out[option] = Object.freeze(factors);
  }
  return Object.keys(out).length > 0 ? Object.freeze(out) : undefined;
}

/**
 * Reads a base price block (`pricing` or, for pass models, `reference`) plus the entry's optional
 * `tiers`. Tiers must be strictly ascending and below the context window (a tier that can never
 * apply is a data error).
 */
export function readModelPricing(
  block: unknown,
  rawTiers: unknown,
  contextLength: number,
  where: string,
): ModelPricing {
  const baseObj = readObject(block, where);
  rejectUnknownKeys(baseObj, BASE_KEYS, where);
  const base = readPriceSet(baseObj, where);
  const multipliers = readMultipliers(baseObj.multipliers, where);

  if (rawTiers === undefined) return multipliers ? { base, tiers: [], multipliers } : { base, tiers: [] };
  if (!Array.isArray(rawTiers)) fail(where, 'tiers must be an array');
  const tiers: PriceTier[] = rawTiers.map((raw, i) => {
    const tierWhere = `${where} tiers[${i}]`;
    const obj = readObject(raw, tierWhere);
    rejectUnknownKeys(obj, TIER_KEYS, tierWhere);
    const abovePromptTokens = readInteger(obj, 'above_prompt_tokens', tierWhere, 1);
    if (abovePromptTokens >= contextLength) {
      fail(tierWhere, `above_prompt_tokens ${abovePromptTokens} is not below context_length ${contextLength}`);
    }
    return { abovePromptTokens, ...readPriceSet(obj, tierWhere, base.webSearch, base.toolFees) };
  });
  for (let i = 1; i < tiers.length; i++) {
    if (tiers[i].abovePromptTokens <= tiers[i - 1].abovePromptTokens) {
      fail(`${where} tiers[${i}]`, 'tiers must be sorted by strictly ascending above_prompt_tokens');
    }
  }
  return multipliers ? { base, tiers, multipliers } : { base, tiers };
}

/** A free model is one whose base prices are all 0 (tiers of a free model must be 0 too). */
export function isZeroPricing(p: ModelPricing): boolean {
  const zero = (s: PriceSet) =>
    s.input === 0n &&
    s.output === 0n &&
    s.cachedRead === 0n &&
    s.cachedWrite === 0n &&
    s.cachedWrite1h === 0n &&
    s.webSearch === 0n &&
    HOSTED_TOOL_FEES.every((tool) => s.toolFees[tool] === 0n);
  return zero(p.base) && p.tiers.every(zero);
}
