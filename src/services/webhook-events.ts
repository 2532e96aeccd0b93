// The events an organization's webhooks receive. Each is written to the outbox (repositories/webhook-outbox.ts) in
// the caller's transaction, the one of the change it tells about, so it is sent exactly when the change committed;
// delivery happens later, off the request path (services/webhook-deliverer.ts). A payload never holds a secret.
import { sql } from 'kysely';
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

/** A budget whose settled spend moved within one period, wherever that spend is kept. */
export interface BudgetSpendChange {
  organizationId: string;
  /** Which budget: `organization`, `member`, `key` or `session`, and the id of its spend (`<level>:<org>:<subject>`). */
  level: string;
  budgetId: string;
  /** For a key's budget: the key's id, named in the payload. */
  keyId?: string;
  limitNanos: bigint;
  spentBeforeNanos: bigint;
  spentAfterNanos: bigint;
  /** The period's start: a fraction fires once per budget and period. */
  periodStart: Date;
  /** When the budget starts over; null for one that never resets. */
  resetsAt: Date | null;
}

/**
 * `budget.threshold`, once per endpoint and per fraction the spend crossed (each endpoint has its fractions, 0.5,
 * 0.8 and 1.0 by default): before the change the spend was below `fraction × limit`, after it at or above, and that
 * fraction of this budget and period was not sent to the endpoint yet. The SQL function is the one emission: the
 * triggers on the settled spend (migration 0024) call it too. Returns the events queued.
 */
export async function emitBudgetThreshold(db: DbOrTrx, change: BudgetSpendChange): Promise<number> {
  const { rows } = await sql<{ emitted: number }>`select webhook_budget_threshold(${change.organizationId},
    ${change.level}, ${change.budgetId}, ${change.keyId ?? null}, ${change.limitNanos}, ${change.spentBeforeNanos},
    ${change.spentAfterNanos}, ${change.periodStart}, ${change.resetsAt}) as emitted`.execute(db);
  return Number(rows[0]?.emitted ?? 0);
}
