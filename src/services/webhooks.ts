// Webhook endpoints of an organization, shared by the member API (owners and admins) and the operator API: each
// change is audited in its own transaction. The signing secret (`whsec_` + base64, as Standard Webhooks writes it)
// is shown once, at creation and rotation, and kept sealed (auth/secret-box.ts) for the deliverer.
import { privateHostReason } from './webhook-destinations.js';
import { randomBytes } from 'node:crypto';
import type { Db, DbOrTrx } from '../db/database.js';
import type { WebhookEndpointRow, WebhookEndpointUpdate } from '../db/tables/webhooks.js';
import { newId } from '../auth/secrets.js';
import { sealSecret, type MasterKey } from '../auth/secret-box.js';
import { requireManager, type OrganizationActor } from '../auth/member-roles.js';
import { GatewayError } from '../core/gateway-error.js';
import { usdToNanos } from '../core/money.js';
import { inTransaction } from '../db/in-transaction.js';
import {
  deleteWebhookEndpoint,
  findWebhookEndpoint,
  insertWebhookEndpoint,
  listWebhookEndpoints,
  updateWebhookEndpoint,
} from '../repositories/webhook-endpoints.js';
import { listAttempts, redeliver, type AttemptView } from '../repositories/webhook-outbox.js';
import { recordAudit, type AuditActor } from './audit-log.js';
import { WEBHOOK_EVENT_TYPES } from './webhook-events.js';

export const DEFAULT_BUDGET_THRESHOLDS: readonly number[] = [0.5, 0.8, 1];
export const DEFAULT_CREDITS_LOW_USD = 1;

/** The wire's fields of a new endpoint or a change (undefined: unchanged, or the default for a new one). */
/** The rows handlers render (they read no tables themselves). */
export type { WebhookEndpointRow } from '../db/tables/webhooks.js';
export type { AttemptView } from '../repositories/webhook-outbox.js';

export interface WebhookSettings {
  url?: string;
  description?: string | null;
  eventTypes?: readonly string[];
  budgetThresholds?: readonly number[];
  creditsLowUsd?: number;
  disabled?: boolean;
}

/** Who changes webhooks: an owner, an admin or the operator, with the credential the audit log names. */
export interface WebhookChanger {
  actor: OrganizationActor;
  audit: AuditActor;
}

function invalid(field: string, message: string): GatewayError {
  return new GatewayError(400, `Invalid request: ${field} ${message}`, { field });
}

export function webhookNotFound(organizationId: string, webhookId: string): GatewayError {
  return new GatewayError(404, `Webhook ${webhookId} not found in organization ${organizationId}`, {
    organization_id: organizationId,
    webhook_id: webhookId,
  });
}

/** `allowPrivate`: the operator allows endpoints on private and local addresses (webhook-destinations.ts). */
function checkUrl(url: string, allowPrivate = false): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('url', 'must be an absolute http:// or https:// URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw invalid('url', 'must be an absolute http:// or https:// URL');
  if (parsed.username !== '' || parsed.password !== '') throw invalid('url', 'must not hold a user name or password');
  const reason = allowPrivate ? undefined : privateHostReason(parsed);
  if (reason !== undefined)
    throw new GatewayError(400, `Invalid request: url must reach a public address (${reason})`, {
      field: 'url',
      reason: 'private_destination',
    });
}

function checkEventTypes(types: readonly string[]): void {
  const unknown = types.filter((t) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(t));
  if (unknown.length > 0)
    throw invalid(
      'event_types',
      `holds unknown types (${unknown.join(', ')}); known: ${WEBHOOK_EVENT_TYPES.join(', ')}`,
    );
}

/** The columns a settings change writes, checked. */
function changesOf(settings: WebhookSettings, allowPrivate: boolean | undefined): WebhookEndpointUpdate {
  const changes: WebhookEndpointUpdate = {};
  if (settings.url !== undefined) {
    checkUrl(settings.url, allowPrivate);
    changes.url = settings.url;
  }
  if (settings.description !== undefined) changes.description = settings.description;
  if (settings.eventTypes !== undefined) {
    checkEventTypes(settings.eventTypes);
    changes.event_types = JSON.stringify([...new Set(settings.eventTypes)]);
  }
  if (settings.budgetThresholds !== undefined)
    changes.budget_thresholds = JSON.stringify([...new Set(settings.budgetThresholds)].sort((a, b) => a - b));
  if (settings.creditsLowUsd !== undefined) changes.credits_low_nanos = usdToNanos(settings.creditsLowUsd);
  if (settings.disabled !== undefined) changes.disabled = settings.disabled;
  return changes;
}

/** What the audit log keeps of an endpoint: everything but its secret. */
export function auditedEndpoint(row: WebhookEndpointRow): Record<string, unknown> {
  const { secret_ciphertext: _secret, ...rest } = row;
  return rest;
}

function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export async function createWebhook(
  db: Db,
  changer: WebhookChanger,
  input: { organizationId: string; settings: WebhookSettings; masterKey?: MasterKey; allowPrivate?: boolean },
): Promise<{ row: WebhookEndpointRow; secret: string }> {
  requireManager(changer.actor, 'Managing webhooks');
  const { settings } = input;
  if (settings.url === undefined) throw invalid('url', 'is required');
  checkUrl(settings.url, input.allowPrivate);
  const eventTypes = settings.eventTypes ?? [];
  if (eventTypes.length === 0) throw invalid('event_types', 'must name at least one event type');
  checkEventTypes(eventTypes);
  const secret = newSigningSecret();
  return inTransaction(db, async (trx) => {
    const row = await insertWebhookEndpoint(trx, {
      id: newId('wh_'),
      organizationId: input.organizationId,
      url: settings.url as string,
      description: settings.description ?? null,
      eventTypes: [...new Set(eventTypes)],
      budgetThresholds: [...new Set(settings.budgetThresholds ?? DEFAULT_BUDGET_THRESHOLDS)].sort((a, b) => a - b),
      creditsLowNanos: usdToNanos(settings.creditsLowUsd ?? DEFAULT_CREDITS_LOW_USD),
      secretCiphertext: sealSecret(secret, input.masterKey),
    });
    const final = settings.disabled ? await updateWebhookEndpoint(trx, row.id, { disabled: true }) : row;
    await recordAudit(trx, {
      actor: changer.audit,
      organizationId: input.organizationId,
      action: 'webhook.created',
      target: { type: 'webhook', id: row.id },
      after: auditedEndpoint(final),
    });
    return { row: final, secret };
  });
}

export async function listWebhooks(
  db: DbOrTrx,
  actor: OrganizationActor,
  organizationId: string,
): Promise<WebhookEndpointRow[]> {
  requireManager(actor, 'Managing webhooks');
  return listWebhookEndpoints(db, organizationId);
}

/** Changes one endpoint; `rotate` also gives it a new secret, returned in clear this once. */
export async function updateWebhook(
  db: Db,
  changer: WebhookChanger,
  input: {
    organizationId: string;
    webhookId: string;
    settings: WebhookSettings;
    rotate?: boolean;
    masterKey?: MasterKey;
    allowPrivate?: boolean;
  },
): Promise<{ row: WebhookEndpointRow; secret?: string }> {
  requireManager(changer.actor, 'Managing webhooks');
  const changes = changesOf(input.settings, input.allowPrivate);
  if (input.settings.eventTypes !== undefined && input.settings.eventTypes.length === 0)
    throw invalid('event_types', 'must name at least one event type');
  const secret = input.rotate ? newSigningSecret() : undefined;
  if (secret !== undefined) changes.secret_ciphertext = sealSecret(secret, input.masterKey);
  return inTransaction(db, async (trx) => {
    const before = await lockedEndpoint(trx, input.organizationId, input.webhookId);
    const row = await updateWebhookEndpoint(trx, before.id, changes);
    await recordAudit(trx, {
      actor: changer.audit,
      organizationId: input.organizationId,
      action: input.rotate ? 'webhook.secret_rotated' : 'webhook.updated',
      target: { type: 'webhook', id: row.id },
      before: auditedEndpoint(before),
      after: auditedEndpoint(row),
    });
    return { row, secret };
  });
}

export async function deleteWebhook(
  db: Db,
  changer: WebhookChanger,
  input: { organizationId: string; webhookId: string },
): Promise<void> {
  requireManager(changer.actor, 'Managing webhooks');
  await inTransaction(db, async (trx) => {
    const before = await lockedEndpoint(trx, input.organizationId, input.webhookId);
    await deleteWebhookEndpoint(trx, before.id);
    await recordAudit(trx, {
      actor: changer.audit,
      organizationId: input.organizationId,
      action: 'webhook.deleted',
      target: { type: 'webhook', id: before.id },
      before: auditedEndpoint(before),
    });
  });
}

async function lockedEndpoint(trx: DbOrTrx, organizationId: string, webhookId: string): Promise<WebhookEndpointRow> {
  const row = webhookId.includes('\u0000')
    ? undefined
    : await findWebhookEndpoint(trx, { organizationId, id: webhookId, lock: true });
  if (!row) throw webhookNotFound(organizationId, webhookId);
  return row;
}

const MAX_INT8 = 2n ** 63n - 1n;

/** One page of the endpoint's attempts, newest first. */
export async function deliveriesPage(
  db: DbOrTrx,
  actor: OrganizationActor,
  input: { organizationId: string; webhookId: string; cursor?: string; limit: number },
): Promise<{ rows: AttemptView[]; nextCursor: string | null }> {
  requireManager(actor, 'Managing webhooks');
  const endpoint = input.webhookId.includes('\u0000')
    ? undefined
    : await findWebhookEndpoint(db, { organizationId: input.organizationId, id: input.webhookId });
  if (!endpoint) throw webhookNotFound(input.organizationId, input.webhookId);
  const before = input.cursor === undefined ? undefined : BigInt(input.cursor);
  if (before !== undefined && before > MAX_INT8)
    throw new GatewayError(400, 'Invalid request: cursor is not one this API returned', { field: 'cursor' });
  const rows = await listAttempts(db, { endpointId: endpoint.id, before, limit: input.limit });
  const more = rows.length > input.limit;
  const page = more ? rows.slice(0, input.limit) : rows;
  return { rows: page, nextCursor: more ? String(page[page.length - 1].id) : null };
}

/** Sends an event to the endpoint again, from its first try; 404 when the endpoint never had that event. */
export async function redeliverEvent(
  db: Db,
  changer: WebhookChanger,
  input: { organizationId: string; webhookId: string; eventId: string; now: Date },
): Promise<void> {
  requireManager(changer.actor, 'Managing webhooks');
  await inTransaction(db, async (trx) => {
    const endpoint = await lockedEndpoint(trx, input.organizationId, input.webhookId);
    const found =
      !input.eventId.includes('\u0000') &&
      (await redeliver(trx, { endpointId: endpoint.id, eventId: input.eventId, now: input.now }));
    if (!found)
      throw new GatewayError(404, `Event ${input.eventId} was not sent to webhook ${endpoint.id}`, {
        webhook_id: endpoint.id,
        event_id: input.eventId,
      });
    await recordAudit(trx, {
      actor: changer.audit,
      organizationId: input.organizationId,
      action: 'webhook.redelivered',
      target: { type: 'webhook', id: endpoint.id },
      after: { event_id: input.eventId },
    });
  });
}
