import type { HandlerParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { organizationsOf } from '../services/organizations.js';
import { toWireOrganization } from './wire-organization.js';

export function listOrganizations(parts: Pick<HandlerParts, 'db'>): Handler {
  return async (_api, ctx) => {
    ctx.body = { data: (await organizationsOf(parts.db, principalOf(ctx))).map(toWireOrganization) };
  };
}
