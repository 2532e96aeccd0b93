// Budgets of an organization and its members: the member API (the caller's role decides, services/budgets.ts) and
// the operator API (the operator stands in for the owner). `limit_usd: null` removes a budget.
import type { HandlerParts } from './handler-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { principalOf } from '../http/authenticate.js';
import { authorizeMemberManagement } from '../auth/key-scopes.js';
import { OPERATOR, type OrganizationActor } from '../auth/member-roles.js';
import { actorOf } from '../services/audit-log.js';
import {
  memberBudget,
  organizationBudget,
  parseBudget,
  setMemberBudget,
  setOrganizationBudget,
  type WireBudget,
} from '../services/budgets.js';
import { memberActor } from '../services/organizations.js';

type BudgetParts = Pick<HandlerParts, 'db' | 'now'>;
type Params = { organization_id: string; user_id?: string };

/** The body's budget as a rule; null removes it. */
function budgetOf(body: unknown) {
  const wire = body as { limit_usd: number | null; reset?: string };
  return wire.limit_usd === null ? null : parseBudget(wire as WireBudget);
}

export function getOrganizationBudget(parts: BudgetParts): Handler {
  return async (api, ctx) => {
    const { organization_id } = api.request.params as Params;
    // Any member reads the organization's budget; the actor check says the caller is one.
    await memberActor(parts.db, principalOf(ctx), organization_id);
    ctx.body = await organizationBudget(parts.db, organization_id, parts.now());
  };
}

export function putOrganizationBudget(parts: BudgetParts): Handler {
  return async (api, ctx) => {
    const principal = principalOf(ctx);
    authorizeMemberManagement(principal);
    const { organization_id } = api.request.params as Params;
    const actor = await memberActor(parts.db, principal, organization_id);
    ctx.body = await setOrganizationBudget(parts.db, actor, {
      organizationId: organization_id,
      budget: budgetOf(api.request.requestBody),
      now: parts.now(),
      by: actorOf(principal),
    });
  };
}

export function getMemberBudget(parts: BudgetParts): Handler {
  return async (api, ctx) => {
    const { organization_id, user_id } = api.request.params as Params;
    const actor = await memberActor(parts.db, principalOf(ctx), organization_id);
    ctx.body = await memberBudget(parts.db, actor, {
      organizationId: organization_id,
      userId: String(user_id),
      now: parts.now(),
    });
  };
}

export function putMemberBudget(parts: BudgetParts): Handler {
  return async (api, ctx) => {
    const principal = principalOf(ctx);
    authorizeMemberManagement(principal);
    const { organization_id } = api.request.params as Params;
    const actor = await memberActor(parts.db, principal, organization_id);
    ctx.body = await changeMemberBudget(parts, actor, { api, principal });
  };
}

function changeMemberBudget(
  parts: BudgetParts,
  actor: OrganizationActor,
  call: { api: Parameters<Handler>[0]; principal: ReturnType<typeof principalOf> },
) {
  const { organization_id, user_id } = call.api.request.params as Params;
  return setMemberBudget(parts.db, actor, {
    organizationId: organization_id,
    userId: String(user_id),
    budget: budgetOf(call.api.request.requestBody),
    now: parts.now(),
    by: actorOf(call.principal),
  });
}

export function adminGetOrganizationBudget(parts: BudgetParts): Handler {
  return async (api, ctx) => {
    ctx.body = await organizationBudget(parts.db, (api.request.params as Params).organization_id, parts.now());
  };
}

export function adminPutOrganizationBudget(parts: BudgetParts): Handler {
  return async (api, ctx) => {
    ctx.body = await setOrganizationBudget(parts.db, OPERATOR, {
      organizationId: (api.request.params as Params).organization_id,
      budget: budgetOf(api.request.requestBody),
      now: parts.now(),
      by: actorOf(principalOf(ctx)),
    });
  };
}

export function adminGetMemberBudget(parts: BudgetParts): Handler {
  return async (api, ctx) => {
    const { organization_id, user_id } = api.request.params as Params;
    ctx.body = await memberBudget(parts.db, OPERATOR, {
      organizationId: organization_id,
      userId: String(user_id),
      now: parts.now(),
    });
  };
}

export function adminPutMemberBudget(parts: BudgetParts): Handler {
  return async (api, ctx) => {
    ctx.body = await changeMemberBudget(parts, OPERATOR, { api, principal: principalOf(ctx) });
  };
}
