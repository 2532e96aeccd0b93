// A request served on an organization's own provider key is paid to the vendor by the organization: the gateway
// charges its BYOK fee instead, a fraction of the list price (MODELGATE_BYOK_FEE, default 0). The own-key endpoint
// carries its catalog entry with every price scaled by that fraction, so admission reserves, and settlement charges,
// the fee through the one pricing function, tiers, multipliers and hosted tools' fees included.
import type { CatalogEntry, PriceSet, PriceTier } from '../catalog/types.js';
import type { HostedToolFee } from '../core/tool-uses.js';

const PPM = 1_000_000n;

/** Scaled entries by fee, per catalog entry: the catalog is loaded once, so each is made once. */
const scaled = new WeakMap<CatalogEntry, Map<number, CatalogEntry>>();

export function byokEntry(entry: CatalogEntry, feePpm: number): CatalogEntry {
  let byFee = scaled.get(entry);
  if (byFee === undefined) {
    byFee = new Map();
    scaled.set(entry, byFee);
  }
  let out = byFee.get(feePpm);
  if (out === undefined) {
    const fee = BigInt(feePpm);
    const scale = (nanos: bigint) => (nanos * fee + PPM / 2n) / PPM;
    out = {
      ...entry,
      pricing: {
        ...entry.pricing,
        base: scaleSet(entry.pricing.base, scale),
        tiers: entry.pricing.tiers.map(
          (tier): PriceTier => ({ ...scaleSet(tier, scale), abovePromptTokens: tier.abovePromptTokens }),
        ),
      },
    };
    byFee.set(feePpm, out);
  }
  return out;
}

function scaleSet(set: PriceSet, scale: (nanos: bigint) => bigint): PriceSet {
  const toolFees = Object.fromEntries(
    Object.entries(set.toolFees).map(([tool, nanos]) => [tool, scale(nanos as bigint)]),
  ) as Record<HostedToolFee, bigint>;
  return {
    input: scale(set.input),
    output: scale(set.output),
    cachedRead: scale(set.cachedRead),
    cachedWrite: scale(set.cachedWrite),
    cachedWrite1h: scale(set.cachedWrite1h),
    webSearch: scale(set.webSearch),
    toolFees,
  };
}
