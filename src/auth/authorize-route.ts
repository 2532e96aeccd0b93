// Which credential may open which route, decided after authentication on every request (cache hits included):
// admin keys open only the operator API under /admin and user credentials never do; a management key opens only the
// operations listed in key-scopes.ts (never one that calls a model); a disabled or expired API key is refused with
// a 401 that says which. Which keys a credential may create, change or delete is decided per key (key-scopes.ts).
import type { Principal } from './principal.js';
import { GatewayError } from '../core/gateway-error.js';
import { checkManagementKeyOperation } from './key-scopes.js';

/** Path prefix of the operator API (the router is mounted at /api/v1). */
export const ADMIN_PATH_PREFIX = '/api/v1/admin/';

export function isAdminPath(path: string): boolean {
  return path.startsWith(ADMIN_PATH_PREFIX) || path === ADMIN_PATH_PREFIX.slice(0, -1);
}

/** `operationId`: the routed operation; a management key is refused when it is not known to be one it may open. */
export function authorizeRoute(principal: Principal, path: string, now: Date, operationId?: string): void {
  if (isAdminPath(path)) {
    if (principal.kind !== 'admin_key') {
      throw new GatewayError(403, 'The operator API needs an admin key; API keys and account tokens cannot use it', {
        reason: 'admin_key_required',
      });
    }
    return;
  }
  if (principal.kind === 'admin_key') {
    // It is nobody's wallet: there is no account for it to spend from or keys for it to list.
    throw new GatewayError(
      403,
      'An admin key only opens the operator API (/api/v1/admin/...); use a user API key here',
      { reason: 'user_credential_required' },
    );
  }
  const policy = principal.policy;
  if (policy !== undefined) {
    if (policy.disabled)
      throw new GatewayError(401, 'This API key is disabled', {
        reason: 'key_disabled',
        key_id: principal.credentialId,
      });
    if (policy.expiresAt !== null && policy.expiresAt.getTime() <= now.getTime()) {
      throw new GatewayError(401, `This API key expired at ${policy.expiresAt.toISOString()}`, {
        reason: 'key_expired',
        key_id: principal.credentialId,
        expired_at: policy.expiresAt.toISOString(),
      });
    }
  }
  // After the 401s: a disabled management key is refused as disabled wherever it goes.
  if (principal.kind === 'management_key') checkManagementKeyOperation(operationId, path);
}

/** Whether `modelId` is one of `patterns`: an exact id, or `provider/*` for every model of a provider. */
export function modelAllowed(patterns: readonly string[] | null, modelId: string): boolean {
  if (patterns === null) return true;
  return patterns.some((p) => (p.endsWith('/*') ? modelId.startsWith(p.slice(0, -1)) : p === modelId));
}

/** 403 naming the model when the key's allow-list does not include it. */
export function checkModelAllowed(principal: Principal, modelId: string): void {
  // The route already refused it (authorizeRoute); every generation passes here, so a door added without being
  // kept off the management key's operations still calls no model with one.
  if (principal.kind === 'management_key') checkManagementKeyOperation(undefined, `model "${modelId}"`);
  const allowed = principal.policy?.allowedModels ?? null;
  if (modelAllowed(allowed, modelId)) return;
  throw new GatewayError(403, `This API key may not use model "${modelId}"; allowed: ${allowed!.join(', ')}`, {
    reason: 'model_not_allowed',
    model: modelId,
    allowed_models: allowed,
  });
}
