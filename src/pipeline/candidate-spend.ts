// What one attempt may spend beyond its tokens, by the lane it takes: what admission reserves for a candidate and what
// a cut-off stream is billed. The native lane sends the client's own request, so its hosted tools and the price
// options the endpoint prices; it leaves out chat's `web_search_options` (native-chat-request.ts), which only the
// translated lane turns into a vendor's search. The translated lane sends no price option (served-options.ts).
import type { ExtraSpend } from '../billing/pricing.js';
import type { RequestFacts } from '../core/request-facts.js';

/** `native`: whether the attempt takes the native lane, asked only when the answer depends on it (a walk of the body). */
export function candidateSpend(facts: RequestFacts, native: boolean | (() => boolean)): ExtraSpend {
  const spend: ExtraSpend = {};
  const isNative = typeof native === 'boolean' ? () => native : native;
  const searches = facts.searchesTranslatedOnly && isNative() ? 0 : (facts.maxWebSearches ?? 0);
  if (searches > 0) spend.webSearches = searches;
  if (facts.maxToolUses) spend.toolUses = facts.maxToolUses;
  if (facts.priceOptions && isNative()) spend.options = facts.priceOptions;
  return spend;
}
