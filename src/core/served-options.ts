// Options of a request that change the vendor's token prices by a factor: the service tier (OpenAI's priority and
// flex processing), Anthropic's fast mode (`speed`) and its data residency (`inference_geo`). Each is named as its
// vendor names it, and billed from what the vendor's answer says it served (OpenAI's `service_tier` in the Response
// or chat completion, Anthropic's `usage.service_tier`, `usage.speed`, `usage.inference_geo`), at the catalog's
// multiplier for that value (`pricing.multipliers`); a value the catalog does not price costs the standard price.

export const PRICE_OPTIONS = ['service_tier', 'speed', 'inference_geo'] as const;

export type PriceOption = (typeof PRICE_OPTIONS)[number];

/** The served (or, before the call, requested) value of each option that is not the standard one. */
export type ServedOptions = Partial<Record<PriceOption, string>>;

/**
 * The values that mean the standard price whatever the catalog says: OpenAI's `auto` and `default` tiers, Anthropic's
 * `standard` tier (and `standard_only`, its request for standard capacity), Groq's `on_demand` (its chat answers name
 * their tier), `standard` speed and `global` geography.
 */
const STANDARD_VALUES: Readonly<Record<PriceOption, readonly string[]>> = {
  service_tier: ['auto', 'default', 'standard', 'standard_only', 'on_demand'],
  speed: ['standard'],
  // Anthropic reports `not_available` for a model without a choice of geography.
  inference_geo: ['global', 'not_available'],
};

/** Whether `value` of `option` is a non-standard value (a string that may carry a price). */
export function isPricedValue(option: PriceOption, value: unknown): value is string {
  return typeof value === 'string' && value !== '' && !STANDARD_VALUES[option].includes(value);
}

/** The options of `source` (an answer's or a request's fields, by their wire names) that are not standard. */
export function servedOptionsOf(
  source: Readonly<Record<string, unknown>> | undefined,
  options: readonly PriceOption[] = PRICE_OPTIONS,
): ServedOptions | undefined {
  if (!source) return undefined;
  let out: ServedOptions | undefined;
  for (const option of options) {
    const value = source[option];
    if (isPricedValue(option, value)) {
      out ??= {};
      out[option] = value;
    }
  }
  return out;
}

/** `a` with `b`'s values on top (a later report of the same answer wins). */
export function mergeServed(a: ServedOptions | undefined, b: ServedOptions | undefined): ServedOptions | undefined {
  if (!b) return a;
  if (!a) return b;
  return { ...a, ...b };
}

/** A request field that asks for a price option, as a door's vendor names it. */
export interface RequestedOption {
  option: PriceOption;
  /** Requested values the vendor's answer reports under another name (OpenAI serves `fast` as `priority`). */
  servedAs?: Readonly<Record<string, string>>;
}

/** OpenAI (Responses and chat completions): `service_tier`; `fast` is served, and reported, as `priority`. */
export const OPENAI_REQUEST_OPTIONS: readonly RequestedOption[] = [
  { option: 'service_tier', servedAs: { fast: 'priority' } },
];

/**
 * Anthropic Messages: `speed` (fast mode) and `inference_geo` (data residency). Its `service_tier` (`auto`,
 * `standard_only`) only says whether the operator's Priority Tier capacity may be used: the answer's
 * `usage.service_tier` is read, but the request's value sets no price.
 */
export const ANTHROPIC_REQUEST_OPTIONS: readonly RequestedOption[] = [{ option: 'speed' }, { option: 'inference_geo' }];

/** The served name of a requested value, or undefined for a standard (or absent) one. */
export function servedNameOf(field: RequestedOption, value: unknown): string | undefined {
  if (!isPricedValue(field.option, value)) return undefined;
  return field.servedAs?.[value] ?? value;
}

/** What a request asks for, by served names (RequestFacts.priceOptions), or undefined when all standard. */
export function requestedOptions(
  body: Readonly<Record<string, unknown>>,
  fields: readonly RequestedOption[],
): ServedOptions | undefined {
  let out: ServedOptions | undefined;
  for (const field of fields) {
    const served = servedNameOf(field, body[field.option]);
    if (served !== undefined) {
      out ??= {};
      out[field.option] = served;
    }
  }
  return out;
}
