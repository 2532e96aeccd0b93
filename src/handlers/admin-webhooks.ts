// The operator's webhook routes: the operator stands in for an owner (auth/member-roles.ts); the admin key acting
// is what the audit log names.
import type { HandlerParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { OPERATOR } from '../auth/member-roles.js';
import { requireOrganization } from '../services/organizations.js';
import { actorOf } from '../services/audit-log.js';
import { createWebhook, deleteWebhook, listWebhooks, type WebhookSettings } from '../services/webhooks.js';
import { toWireWebhook } from './wire-webhook.js';

type Parts = Pick<HandlerParts, 'config' | 'db'>;

export function adminListWebhooks(parts: Parts): Handler {
  return async (api, ctx) => {
    const org = await requireOrganization(parts.db, String(api.request.params.organization_id));
    ctx.body = { data: (await listWebhooks(parts.db, OPERATOR, org.id)).map(toWireWebhook) };
  };
}

export function adminCreateWebhook(parts: Parts): Handler {
  return async (api, ctx) => {
    const org = await requireOrganization(parts.db, String(api.request.params.organization_id));
    const body = api.request.requestBody as {
      url: string;
      description?: string | null;
      event_types: string[];
      budget_thresholds?: number[];
      credits_low_usd?: number;
      disabled?: boolean;
    };
    const settings: WebhookSettings = {
      url: body.url,
      description: body.description,
      eventTypes: body.event_types,
      budgetThresholds: body.budget_thresholds,
      creditsLowUsd: body.credits_low_usd,
      disabled: body.disabled,
    };
    const { row, secret } = await createWebhook(
      parts.db,
      { actor: OPERATOR, audit: actorOf(principalOf(ctx)) },
      {
        organizationId: org.id,
        settings,
        masterKey: parts.config.encryptionKey,
        allowPrivate: parts.config.webhooks.allowPrivateDestinations,
      },
    );
    ctx.status = 201;
    ctx.set('cache-control', 'no-store');
    ctx.body = { ...toWireWebhook(row), secret };
  };
}

export function adminDeleteWebhook(parts: Parts): Handler {
  return async (api, ctx) => {
    const org = await requireOrganization(parts.db, String(api.request.params.organization_id));
    const webhookId = String(api.request.params.webhook_id);
    await deleteWebhook(
      parts.db,
      { actor: OPERATOR, audit: actorOf(principalOf(ctx)) },
      { organizationId: org.id, webhookId },
    );
    ctx.body = { deleted: true, webhook_id: webhookId };
  };
}
