// The member API of webhooks: the caller's member in the organization acts (owner or admin; services/webhooks.ts
// checks the role), with the credential the audit log names.
import type { Context } from 'koa';
import type { Context as ApiContext } from 'openapi-backend';
import type { HandlerParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { authorizeMemberManagement } from '../auth/key-scopes.js';
import { memberActor } from '../services/organizations.js';
import { actorOf } from '../services/audit-log.js';
import {
  createWebhook as create,
  deleteWebhook as remove,
  deliveriesPage,
  listWebhooks as list,
  redeliverEvent,
  updateWebhook as update,
  type WebhookChanger,
  type WebhookSettings,
} from '../services/webhooks.js';
import { toWireAttempt, toWireWebhook } from './wire-webhook.js';
import { queryInt, queryString } from './query-params.js';

type WebhookParts = Pick<HandlerParts, 'config' | 'db' | 'now'>;

interface WireWebhookSettings {
  url?: string;
  description?: string | null;
  event_types?: string[];
  budget_thresholds?: number[];
  credits_low_usd?: number;
  disabled?: boolean;
}

function settingsOf(body: WireWebhookSettings): WebhookSettings {
  return {
    url: body.url,
    description: body.description,
    eventTypes: body.event_types,
    budgetThresholds: body.budget_thresholds,
    creditsLowUsd: body.credits_low_usd,
    disabled: body.disabled,
  };
}

/** The organization of the path and the caller acting in it. */
async function changerIn(
  db: HandlerParts['db'],
  api: ApiContext,
  ctx: Context,
): Promise<WebhookChanger & { organizationId: string }> {
  const principal = principalOf(ctx);
  authorizeMemberManagement(principal);
  const organizationId = String(api.request.params.organization_id);
  const actor = await memberActor(db, principal, organizationId);
  return { organizationId, actor, audit: actorOf(principal) };
}

export function listWebhooks(parts: WebhookParts): Handler {
  return async (api, ctx) => {
    const { organizationId, actor } = await changerIn(parts.db, api, ctx);
    ctx.body = { data: (await list(parts.db, actor, organizationId)).map(toWireWebhook) };
  };
}

export function createWebhook(parts: WebhookParts): Handler {
  return async (api, ctx) => {
    const { organizationId, ...changer } = await changerIn(parts.db, api, ctx);
    const { row, secret } = await create(parts.db, changer, {
      organizationId,
      settings: settingsOf(api.request.requestBody as WireWebhookSettings),
      masterKey: parts.config.encryptionKey,
      allowPrivate: parts.config.webhooks.allowPrivateDestinations,
    });
    ctx.status = 201;
    ctx.set('cache-control', 'no-store');
    ctx.body = { ...toWireWebhook(row), secret };
  };
}

export function updateWebhook(parts: WebhookParts): Handler {
  return async (api, ctx) => {
    const { organizationId, ...changer } = await changerIn(parts.db, api, ctx);
    const { row } = await update(parts.db, changer, {
      organizationId,
      webhookId: String(api.request.params.webhook_id),
      settings: settingsOf((api.request.requestBody ?? {}) as WireWebhookSettings),
    });
    ctx.body = toWireWebhook(row);
  };
}

export function rotateWebhookSecret(parts: WebhookParts): Handler {
  return async (api, ctx) => {
    const { organizationId, ...changer } = await changerIn(parts.db, api, ctx);
    const { row, secret } = await update(parts.db, changer, {
      organizationId,
      webhookId: String(api.request.params.webhook_id),
      settings: {},
      rotate: true,
      masterKey: parts.config.encryptionKey,
      allowPrivate: parts.config.webhooks.allowPrivateDestinations,
    });
    ctx.set('cache-control', 'no-store');
    ctx.body = { ...toWireWebhook(row), secret };
  };
}

export function deleteWebhook(parts: WebhookParts): Handler {
  return async (api, ctx) => {
    const { organizationId, ...changer } = await changerIn(parts.db, api, ctx);
    const webhookId = String(api.request.params.webhook_id);
    await remove(parts.db, changer, { organizationId, webhookId });
    ctx.body = { deleted: true, webhook_id: webhookId };
  };
}

export function listWebhookDeliveries(parts: WebhookParts): Handler {
  return async (api, ctx) => {
    const { organizationId, actor } = await changerIn(parts.db, api, ctx);
    const page = await deliveriesPage(parts.db, actor, {
      organizationId,
      webhookId: String(api.request.params.webhook_id),
      cursor: queryString(api, 'cursor'),
      limit: queryInt(api, 'limit', 100),
    });
    ctx.body = { data: page.rows.map(toWireAttempt), next_cursor: page.nextCursor };
  };
}

export function redeliverWebhookEvent(parts: WebhookParts): Handler {
  return async (api, ctx) => {
    const { organizationId, ...changer } = await changerIn(parts.db, api, ctx);
    const eventId = String(api.request.params.event_id);
    await redeliverEvent(parts.db, changer, {
      organizationId,
      webhookId: String(api.request.params.webhook_id),
      eventId,
      now: parts.now(),
    });
    ctx.body = { redelivered: true, event_id: eventId };
  };
}
