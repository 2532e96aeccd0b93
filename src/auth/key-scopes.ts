// Key scopes: what each user credential may do with models and with the account's keys.
//
//                         call models   read the account   create keys        change keys        delete keys
//   API key (mg-v1-)      yes           yes                no                 no                 itself only
//   management key        no            yes                inference keys     inference keys     inference keys,
//     (mgm-v1-)                                                                                  itself
//   account token         yes           yes                any kind           any                any
//     (mgt-v1-)
//
// So a key handed to a CI job with a budget keeps its budget: it cannot lift its own limit or allow-list, mint an
// unlimited key, or delete its siblings, and a leaked key's holder can still kill it. A management key (OpenRouter's
// management keys: key management only, never completions) is account-wide but spends nothing, and cannot mint or
// change another management key, so a leaked one cannot outlive its revocation. Refusals are 403 naming the
// credential that would be allowed (never 404: an inference key is refused before any key is looked up).
import { GatewayError } from '../core/gateway-error.js';
import type { ApiKeyKind } from '../db/tables/api-keys.js';
import type { Principal } from './principal.js';

/**
 * What a management key may open: the key routes and the account's read-only routes. A list of what is allowed,
 * not of what is refused, so an operation added later (a new generation door) stays closed to it until named here.
 */
export const MANAGEMENT_KEY_OPERATIONS: ReadonlySet<string> = new Set([
  'listApiKeys',
  'createApiKey',
  'updateApiKey',
  'deleteApiKey',
  'getCurrentKey',
  'getCredits',
  'getGeneration',
  'listGenerations',
  'getSession',
  'getActivity',
  'getPassUsage',
  'listModels',
  'getModel',
  'listModelEndpoints',
  'geminiListModels',
  'geminiGetModel',
  'listOrganizations',
  'listOrganizationMembers',
  'putOrganizationMember',
  'deleteOrganizationMember',
  'getOrganizationBudget',
  'putOrganizationBudget',
  'getMemberBudget',
  'putMemberBudget',
  'createOrganizationInvitation',
  'listOrganizationInvitations',
  'getOrganizationUsage',
  'deleteOrganizationInvitation',
  'listWebhooks',
  'createWebhook',
  'updateWebhook',
  'deleteWebhook',
  'rotateWebhookSecret',
  'listWebhookDeliveries',
  'redeliverWebhookEvent',
  'listModelAliases',
  'getModelAlias',
  'putModelAlias',
  'deleteModelAlias',
  'listPresets',
  'getPreset',
  'getPresetVersion',
  'createPreset',
  'deletePreset',
  'listOrganizationAuditLog',
  'listProviderKeys',
  'putProviderKey',
  'deleteProviderKey',
  'getGuardrails',
  'putGuardrails',
]);

const MANAGER = 'the account auth token (account page, `npx modelgate tokens create`) or a management key (mgm-v1-...)';
const ACCOUNT_TOKEN = 'the account auth token (account page, `npx modelgate tokens create`)';

function forbidden(
  message: string,
  required: 'management_credential' | 'account_token' | 'inference_credential',
): GatewayError {
  return new GatewayError(403, message, { reason: `${required}_required` });
}

/** A management key on an operation it may not open (`what` names it for the message). */
export function checkManagementKeyOperation(operationId: string | undefined, what: string): void {
  if (operationId !== undefined && MANAGEMENT_KEY_OPERATIONS.has(operationId)) return;
  throw forbidden(
    `A management key manages API keys and reads the account; it cannot call models or use ${what}. Use an API key (mg-v1-...) or the account auth token`,
    'inference_credential',
  );
}

/** Creating a key of `kind`: inference keys by a management key or the account token, management keys by the token only. */
export function authorizeKeyCreation(principal: Principal, kind: ApiKeyKind): void {
  if (principal.kind === 'account_token') return;
  if (principal.kind === 'management_key') {
    if (kind === 'inference') return;
    throw forbidden(
      `Creating a management key needs ${ACCOUNT_TOKEN}; a management key creates inference keys only`,
      'account_token',
    );
  }
  throw forbidden(
    `Creating API keys needs ${MANAGER}; an API key calls models and reads its account but cannot create keys`,
    'management_credential',
  );
}

export type KeyChange = 'update' | 'delete';

/**
 * Before any key is looked up: an API key may only delete itself, and changes no key (not even itself, since any
 * change to its own limit, allow-list, expiry or kill switch could widen it). Other credentials go on to
 * `authorizeKeyTarget` once the key is found.
 */
export function authorizeKeyChange(principal: Principal, change: KeyChange, keyId: string): void {
  if (principal.kind !== 'api_key') return;
  if (change === 'delete' && keyId === principal.credentialId) return;
  throw forbidden(
    change === 'update'
      ? `Changing an API key needs ${MANAGER}; an API key cannot change keys, its own included`
      : `Deleting another API key needs ${MANAGER}; an API key may delete (revoke) only itself`,
    'management_credential',
  );
}

/** Once the account's key is found: a management key leaves other management keys to the account token. */
export function authorizeKeyTarget(
  principal: Principal,
  change: KeyChange,
  target: { id: string; kind: ApiKeyKind },
): void {
  if (principal.kind !== 'management_key' || target.kind === 'inference') return;
  if (change === 'delete' && target.id === principal.credentialId) return;
  throw forbidden(
    change === 'update'
      ? `Changing a management key needs ${ACCOUNT_TOKEN}; a management key changes inference keys only, not itself`
      : `Deleting another management key needs ${ACCOUNT_TOKEN}; a management key deletes inference keys and itself`,
    'account_token',
  );
}

/** Changing an organization's members or inviting: the account token or a management key (the role decides then). */
export function authorizeMemberManagement(principal: Principal): void {
  if (principal.kind !== 'api_key') return;
  throw forbidden(
    `Managing members needs ${MANAGER}; an API key calls models and reads its organization`,
    'management_credential',
  );
}

/** What only a signed-in user does (creating an organization, accepting an invitation, choosing a key's organization). */
export function requireAccountToken(principal: Principal, what: string): void {
  if (principal.kind === 'account_token') return;
  throw forbidden(`${what} needs ${ACCOUNT_TOKEN}; a key acts in its own organization only`, 'account_token');
}

/**
 * Whose keys a credential sees and changes in its organization: an owner's or admin's, every member's; a member's,
 * its own only (another member's key answers as a missing one, so ids cannot be probed).
 */
export function seesKeyOf(principal: Principal, memberUserId: string): boolean {
  return principal.role !== 'member' || principal.memberUserId === memberUserId;
}

/** Whose usage a credential reads in its organization: undefined for an owner or admin (everyone's), else its own. */
export function usageMemberOf(principal: Principal): string | undefined {
  return principal.role === 'member' ? principal.memberUserId : undefined;
}
