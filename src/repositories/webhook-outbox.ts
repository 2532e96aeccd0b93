// The outbox of webhook events: events and their deliveries, claimed by deliverers under a lease.
import { sql } from 'kysely';
import type { DbOrTrx } from '../db/database.js';
import type { WebhookAttemptRow, WebhookDeliveryStatus, WebhookPayload } from '../db/tables/webhooks.js';

export async function insertEvent(
  db: DbOrTrx,
  input: { id: string; organizationId: string; payload: WebhookPayload; endpointIds: readonly string[] },
): Promise<void> {
  await db
    .insertInto('webhook_events')
    .values({
      id: input.id,
      organization_id: input.organizationId,
      type: input.payload.type,
      payload: JSON.stringify(input.payload),
    })
    .execute();
  await db
    .insertInto('webhook_deliveries')
    .values(input.endpointIds.map((endpointId) => ({ event_id: input.id, endpoint_id: endpointId })))
    .execute();
}

/** A delivery claimed by a deliverer, with what it sends. */
export interface ClaimedDelivery {
  id: bigint;
  attempts: number;
  eventId: string;
  payload: WebhookPayload;
  url: string;
  secretCiphertext: string;
}

/**
 * Claims up to `limit` due deliveries for `leaseMs`: rows another deliverer is claiming are skipped (SKIP LOCKED), and
 * a claimed row's next_attempt_at moves past the lease, so no one else takes it while it is being sent; if this
 * process dies, the row is due again when the lease ends.
 */
export async function claimDueDeliveries(
  db: DbOrTrx,
  input: { now: Date; leaseMs: number; limit: number },
): Promise<ClaimedDelivery[]> {
  const leaseEnd = new Date(input.now.getTime() + input.leaseMs);
  const result = await sql<{
    id: bigint;
    attempts: number;
    event_id: string;
    payload: WebhookPayload | string;
    url: string;
    secret_ciphertext: string;
  }>`with due as (
  select d.id from webhook_deliveries d
  where d.status = 'pending' and d.next_attempt_at <= ${input.now}
  order by d.next_attempt_at, d.id
  limit ${input.limit}
  for update skip locked)
update webhook_deliveries d set next_attempt_at = ${leaseEnd}
from due, webhook_events ev, webhook_endpoints ep
where d.id = due.id and ev.id = d.event_id and ep.id = d.endpoint_id
returning d.id, d.attempts, d.event_id, ev.payload, ep.url, ep.secret_ciphertext`.execute(db);
  return result.rows.map((r) => ({
    id: r.id,
    attempts: r.attempts,
    eventId: r.event_id,
    payload: typeof r.payload === 'string' ? (JSON.parse(r.payload) as WebhookPayload) : r.payload,
    url: r.url,
    secretCiphertext: r.secret_ciphertext,
  }));
}

export interface AttemptOutcome {
  deliveryId: bigint;
  attempt: number;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  /** The delivery's state after this attempt; `nextAttemptAt` only while pending. */
  status: WebhookDeliveryStatus;
  nextAttemptAt: Date | null;
  now: Date;
}

/** Records one attempt and moves the delivery on (to its next try, delivered, or failed). */
export async function recordAttempt(db: DbOrTrx, outcome: AttemptOutcome): Promise<void> {
  await db
    .insertInto('webhook_attempts')
    .values({
      delivery_id: outcome.deliveryId,
      attempt: outcome.attempt,
      started_at: outcome.startedAt,
      duration_ms: outcome.durationMs,
      status_code: outcome.statusCode,
      error: outcome.error,
      next_attempt_at: outcome.nextAttemptAt,
    })
    .execute();
  await db
    .updateTable('webhook_deliveries')
    .set({
      attempts: outcome.attempt,
      status: outcome.status,
      next_attempt_at: outcome.nextAttemptAt ?? outcome.now,
      finished_at: outcome.status === 'pending' ? null : outcome.now,
    })
    .where('id', '=', outcome.deliveryId)
    .execute();
}

/** An attempt as GET .../deliveries lists it. */
export type AttemptView = WebhookAttemptRow & {
  event_id: string;
  event_type: string;
  delivery_status: WebhookDeliveryStatus;
};

/** The endpoint's attempts, newest first; one more row than `limit` tells whether a next page exists. */
export async function listAttempts(
  db: DbOrTrx,
  input: { endpointId: string; before?: bigint; limit: number },
): Promise<AttemptView[]> {
  let q = db
    .selectFrom('webhook_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .selectAll('a')
    .select(['d.event_id', 'e.type as event_type', 'd.status as delivery_status'])
    .where('d.endpoint_id', '=', input.endpointId);
  if (input.before !== undefined) q = q.where('a.id', '<', input.before);
  return q
    .orderBy('a.id', 'desc')
    .limit(input.limit + 1)
    .execute();
}

/** Sends the event to the endpoint again: its delivery is due now with a fresh count of attempts. */
export async function redeliver(
  db: DbOrTrx,
  input: { endpointId: string; eventId: string; now: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', attempts: 0, next_attempt_at: input.now, finished_at: null })
    .where('endpoint_id', '=', input.endpointId)
    .where('event_id', '=', input.eventId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Deletes finished deliveries older than `cutoff`, then events left without deliveries; returns deliveries deleted. */
export async function pruneFinishedDeliveries(db: DbOrTrx, cutoff: Date): Promise<number> {
  const result = await db
    .deleteFrom('webhook_deliveries')
    .where('status', '<>', 'pending')
    .where('finished_at', '<', cutoff)
    .executeTakeFirst();
  await db
    .deleteFrom('webhook_events')
    .where('created_at', '<', cutoff)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('webhook_deliveries').select('id').whereRef('event_id', '=', 'webhook_events.id'))),
    )
    .execute();
  return Number(result.numDeletedRows);
}
