// The events an organization's webhooks receive. Each is written to the outbox (repositories/webhook-outbox.ts) in
// the caller's transaction, the one of the change it tells about, so it is sent exactly when the change committed;
// delivery happens later, off the request path (services/webhook-deliverer.ts). A payload never holds a secret.
import type { DbOrTrx } from '../db/database.js';
import type { WebhookPayload } from '../db/tables/webhooks.js';
import { newId } from '../auth/secrets.js';
import { nanosToUsd } from '../core/money.js';
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

/** A budget whose spend moved: the budget code calls `emitBudgetThreshold` with it in its own transaction. */
export interface BudgetSpendChange {
  organizationId: string;
  /** Which budget: `organization`, `member`, `key` or `session`, and the id of what it limits. */
  level: string;
  budgetId: string;
  limitNanos: bigint;
  spentBeforeNanos: bigint;
  spentAfterNanos: bigint;
  /** When the budget starts over; null for one that never resets. */
  resetsAt: Date | null;
  now: Date;
}

/**
 * `budget.threshold`, once per endpoint and per fraction the spend crossed (each endpoint has its fractions, 0.5,
 * 0.8 and 1.0 by default): before the change the spend was below `fraction × limit`, after it at or above.
 */
export async function emitBudgetThreshold(db: DbOrTrx, change: BudgetSpendChange): Promise<number> {
  if (change.limitNanos <= 0n || change.spentAfterNanos <= change.spentBeforeNanos) return 0;
  const endpoints = await subscribedEndpoints(db, change.organizationId, 'budget.threshold');
  let emitted = 0;
  for (const endpoint of endpoints) {
    for (const fraction of endpoint.budget_thresholds) {
      // Fractions have at most 4 decimals (the API's bound), so the mark is exact in nano-dollars.
      const mark = (change.limitNanos * BigInt(Math.round(fraction * 10_000))) / 10_000n;
      if (!(change.spentBeforeNanos < mark && change.spentAfterNanos >= mark)) continue;
      await insertEvent(db, {
        id: newId('msg_'),
        organizationId: change.organizationId,
        payload: payloadOf('budget.threshold', change.now, {
          organization_id: change.organizationId,
          budget: change.level,
          budget_id: change.budgetId,
          threshold: fraction,
          limit_usd: nanosToUsd(change.limitNanos),
          spent_usd: nanosToUsd(change.spentAfterNanos),
          resets_at: change.resetsAt?.toISOString() ?? null,
        }),
        endpointIds: [endpoint.id],
      });
      emitted++;
    }
  }
  return emitted;
}
