// The organization's guardrails (services/guardrails.ts checks the role). A change drops this process's cached
// principals at once, since they carry the guardrails; other processes hear it from the database's notification.
import type { Config } from '../config.js';
import type { HandlerParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import type { WireGuardrail } from '../guardrails/parse-guardrails.js';
import { guardrailEditorOf, organizationGuardrails, putOrganizationGuardrails } from '../services/guardrails.js';

type GuardrailParts = Pick<HandlerParts, 'credentials' | 'db'> & { config: Pick<Config, 'guardrails'> };

export function getGuardrails(parts: GuardrailParts): Handler {
  return async (_api, ctx) => {
    ctx.body = { data: await organizationGuardrails(parts.db, principalOf(ctx).organizationId) };
  };
}

export function putGuardrails(parts: GuardrailParts): Handler {
  return async (api, ctx) => {
    const body = api.request.requestBody as { data: WireGuardrail[] };
    const guardrails = await putOrganizationGuardrails(parts.db, guardrailEditorOf(principalOf(ctx)), {
      guardrails: body.data,
      settings: parts.config.guardrails,
    });
    parts.credentials.invalidateAll();
    ctx.body = { data: guardrails };
  };
}
