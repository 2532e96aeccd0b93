// Which organization a user credential acts in. A key acts in its own organization; the account auth token in its
// user's personal one unless the request names another with `X-Modelgate-Organization` (OpenAI's
// `OpenAI-Organization`, OpenRouter's organization switcher), which must be one the user belongs to. The member's
// role there then decides what the token may do, as it does for a key of that member.
import type { DbOrTrx } from '../db/database.js';
import type { Principal } from './principal.js';
import { GatewayError } from '../core/gateway-error.js';
import { findMembershipContext } from '../repositories/organizations.js';
import { aliasMapOf } from '../repositories/organization-aliases.js';
import { budgetsOf } from './authenticate-credential.js';

/** The request header naming the organization the account token acts in (lower case, as Koa reads it). */
export const ORGANIZATION_HEADER = 'x-modelgate-organization';

/**
 * The principal acting in `requested` (undefined or empty: as authenticated). A key naming another organization than
 * its own is 403; an organization the token's user is not a member of is 404, as one that does not exist. The
 * principal from the credential cache is shared, so a new one is returned rather than the cached one changed.
 */
export async function principalInOrganization(
  db: DbOrTrx,
  principal: Principal,
  requested: string | undefined,
): Promise<Principal> {
  if (requested === undefined || requested === '' || principal.kind === 'admin_key') return principal;
  if (requested === principal.organizationId) return principal;
  if (principal.kind !== 'account_token')
    throw new GatewayError(
      403,
      'A key acts in its own organization only; X-Modelgate-Organization may name another one with the account auth token',
      { reason: 'account_token_required', organization_id: requested },
    );
  const membership = requested.includes('\u0000')
    ? undefined
    : await findMembershipContext(db, { organizationId: requested, userId: principal.memberUserId });
  if (!membership) throw new GatewayError(404, `Organization ${requested} not found`, { organization_id: requested });
  // That organization's budgets and aliases, not the personal organization's the token's principal carries.
  return {
    ...principal,
    organizationId: requested,
    role: membership.role,
    budgets: budgetsOf(membership),
    aliases: aliasMapOf(membership.org_aliases),
    // The token has no key-level guardrails: only the organization's apply.
    guardrails: { organization: membership.org_guardrails ?? [], key: [] },
  };
}
