import type { DbOrTrx } from '../db/database.js';
import type { WebhookEndpointRow, WebhookEndpointUpdate } from '../db/tables/webhooks.js';

export interface NewEndpointInput {
  id: string;
  organizationId: string;
  url: string;
  description: string | null;
  eventTypes: readonly string[];
  budgetThresholds: readonly number[];
  creditsLowNanos: bigint;
  secretCiphertext: string;
}

export async function insertWebhookEndpoint(db: DbOrTrx, input: NewEndpointInput): Promise<WebhookEndpointRow> {
  return db
    .insertInto('webhook_endpoints')
    .values({
      id: input.id,
      organization_id: input.organizationId,
      url: input.url,
      description: input.description,
      event_types: JSON.stringify(input.eventTypes),
      budget_thresholds: JSON.stringify(input.budgetThresholds),
      credits_low_nanos: input.creditsLowNanos,
      secret_ciphertext: input.secretCiphertext,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function listWebhookEndpoints(db: DbOrTrx, organizationId: string): Promise<WebhookEndpointRow[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** The endpoint of this organization, locked until the transaction ends when `lock` is set. */
export async function findWebhookEndpoint(
  db: DbOrTrx,
  { organizationId, id, lock = false }: { organizationId: string; id: string; lock?: boolean },
): Promise<WebhookEndpointRow | undefined> {
  const q = db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id);
  return (lock ? q.forUpdate() : q).executeTakeFirst();
}

export async function updateWebhookEndpoint(
  db: DbOrTrx,
  id: string,
  changes: WebhookEndpointUpdate,
): Promise<WebhookEndpointRow> {
  return db
    .updateTable('webhook_endpoints')
    .set({ ...changes, updated_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteWebhookEndpoint(db: DbOrTrx, id: string): Promise<void> {
  await db.deleteFrom('webhook_endpoints').where('id', '=', id).execute();
}

/** The organization's enabled endpoints that receive `type`. */
export async function subscribedEndpoints(
  db: DbOrTrx,
  organizationId: string,
  type: string,
): Promise<WebhookEndpointRow[]> {
  const rows = await db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('disabled', '=', false)
    .execute();
  return rows.filter((row) => row.event_types.includes(type));
}

/** Every endpoint's sealed signing secret, for re-wrapping under a new master key. */
export async function sealedWebhookSecrets(db: DbOrTrx): Promise<Array<{ id: string; secret_ciphertext: string }>> {
  return db.selectFrom('webhook_endpoints').select(['id', 'secret_ciphertext']).execute();
}

/** Replaces a signing secret's ciphertext with the same secret re-wrapped, only if it is still the one read. */
export async function replaceWebhookSecretCiphertext(
  db: DbOrTrx,
  row: { id: string; from: string; to: string },
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set({ secret_ciphertext: row.to })
    .where('id', '=', row.id)
    .where('secret_ciphertext', '=', row.from)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
