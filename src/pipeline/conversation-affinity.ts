// Session affinity around one generation: before planning, which endpoint served the conversation's previous turn;
// after an endpoint has served, that it did (the entry's TTL starts again). Nothing is asked or written when the
// request names no session or has no endpoint to choose (routing/plan-route.ts hasEndpointChoice).
import type { Principal } from '../auth/principal.js';
import type { Catalog } from '../catalog/catalog.js';
import { hasEndpointChoice, type RoutingFields } from '../routing/plan-route.js';
import { affinityKey, type AffinityStore } from '../routing/session-affinity.js';

export interface ConversationAffinity {
  /** The store key (hashed account, model and session). */
  key: string;
  /** The endpoint that served the previous turn, if remembered. */
  endpoint?: string;
}

export async function recallAffinity(
  parts: { catalog: Catalog; affinity?: AffinityStore },
  principal: Principal,
  model: string,
  routing: RoutingFields | undefined,
  sessionKey: string | undefined,
): Promise<ConversationAffinity | undefined> {
  if (sessionKey === undefined || !parts.affinity || !hasEndpointChoice(parts.catalog, model, routing))
    return undefined;
  const key = affinityKey(principal.organizationId, model, sessionKey);
  return { key, endpoint: await parts.affinity.get(key) };
}

/**
 * After an endpoint served: it is the conversation's endpoint from now on (also when a failover chose it). The caller
 * awaits it before a JSON answer leaves, so a next turn sent at once to another instance reads it (a stream's answer
 * lasts far longer than the write, and does not wait for it). A shared store's write never rejects and is bounded by
 * the Redis command timeout.
 */
export async function rememberAffinity(
  store: AffinityStore | undefined,
  affinity: ConversationAffinity | undefined,
  servedEndpoint: string,
): Promise<void> {
  if (!store || !affinity) return;
  await store.set(affinity.key, servedEndpoint);
}
