// The events an organization's webhooks receive. Each is written to the outbox (repositories/webhook-outbox.ts) in
// the caller's transaction, the one of the change it tells about, so it is sent exactly when the change committed;
// delivery happens later, off the request path (services/webhook-deliverer.ts). A payload never holds a secret.
import type { DbOrTrx } from '../db/database.js';
import type { WebhookPayload } from '../db/tables/webhooks.js';
import { newId } from '../auth/secrets.js';
import { subscribedEndpoints } from '../repositories/webhook-endpoints.js';
import { insertEvent } from '../repositories/webhook-outbox.js';

/** Every event type there is; an endpoint subscribes to some of them. */
export const WEBHOOK_EVENT_TYPES = [
  'budget.threshold',
  'credits.low',
  'key.created',
  'key.revoked',
  'key.limit_changed',
  'member.added',
  'member.removed',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

function payloadOf(type: string, now: Date, data: Record<string, unknown>): WebhookPayload {
  return { type, timestamp: now.toISOString(), data };
}

/** Writes the event for every endpoint of the organization that receives its type (none: nothing is written). */
export async function emitEvent(
  db: DbOrTrx,
  input: { organizationId: string; type: WebhookEventType; data: Record<string, unknown>; now: Date },
): Promise<void> {
  const endpoints = await subscribedEndpoints(db, input.organizationId, input.type);
  if (endpoints.length === 0) return;
  await insertEvent(db, {
    id: newId('msg_'),
    organizationId: input.organizationId,
    payload: payloadOf(input.type, input.now, { organization_id: input.organizationId, ...input.data }),
    endpointIds: endpoints.map((e) => e.id),
  });
}
