// The price options of a client's request on a native lane (core/served-options.ts: OpenAI's `service_tier`,
// Anthropic's `speed` and `inference_geo`). The native lane passes the client's fields through, so an option that
// changes what the vendor charges would reach it and be billed the standard price. Each is therefore sent only with a
// value the endpoint prices (catalog `pricing.multipliers`, AdapterModel.pricedOptions) or its standard one, and
// otherwise left out and named in `x-modelgate-warning`, as a hosted tool the gateway cannot bill is.
import { servedNameOf, type RequestedOption } from '../../core/served-options.js';
import type { AdapterModel } from '../adapter.js';

export interface OptionEdits {
  /** Top-level fields to leave out of the request. */
  remove: string[];
  /** One sentence per option left out with a value the endpoint does not price. */
  warnings: string[];
}

/**
 * What to leave out of `body` for `model`. `standard`: what becomes of a standard value (`auto`, `default`, `standard`,
 * `global`, null): `keep` for the vendor's own API, `drop` where the vendor may not know the field (chat vendors).
 */
export function unpricedOptions(
  body: Readonly<Record<string, unknown>>,
  fields: readonly RequestedOption[],
  model: AdapterModel,
  standard: 'keep' | 'drop' = 'keep',
): OptionEdits {
  const edits: OptionEdits = { remove: [], warnings: [] };
  for (const field of fields) {
    const value = body[field.option];
    if (value === undefined) continue;
    const served = servedNameOf(field, value);
    if (served === undefined) {
      if (standard === 'drop') edits.remove.push(field.option);
      continue;
    }
    if (model.pricedOptions?.[field.option]?.includes(served)) continue;
    edits.remove.push(field.option);
    edits.warnings.push(
      `${field.option} ${JSON.stringify(value)} left out: ${model.id} has no price for it at this gateway, which would bill it at the standard price`,
    );
  }
  return edits;
}
