// A failed attempt on an organization's own provider key is told as the organization's problem: the provider refused
// its key (401, 403) or rate-limited it (429). The message names the provider and says what to do; it carries none
// of the vendor's text, which could echo the key.
import { GatewayError } from '../core/gateway-error.js';
import type { Target } from '../routing/resolve-target.js';
import { UpstreamHttpError } from './call-upstream.js';

function upstreamStatus(err: unknown): number | undefined {
  if (!(err instanceof UpstreamHttpError)) return undefined;
  const status = err.metadata.upstream_status;
  // A vendor error inside a 200 body is judged by the status it maps to.
  return typeof status === 'number' && status >= 300 ? status : err.status;
}

/** The provider refused or rate-limited the organization's key: the operator's key may still serve (`prefer`). */
export function isOwnKeyRefusal(err: unknown): boolean {
  const status = upstreamStatus(err);
  return status === 401 || status === 403 || status === 429;
}

/** The error to answer with when an attempt on the organization's own key failed last. */
export function ownKeyError(err: unknown, target: Target): unknown {
  const provider = target.provider.id;
  const status = upstreamStatus(err);
  const metadata = { provider, organization_key: true, mode: target.byok?.mode, upstream_status: status };
  if (status === 401 || status === 403)
    return new GatewayError(
      403,
      `${provider} refused the organization's own ${provider} key (HTTP ${status}): replace it with PUT /api/v1/provider-keys/${provider}, or delete it to use the gateway's`,
      { ...metadata, reason: 'provider_key_rejected' },
    );
  if (status === 429)
    return new GatewayError(
      429,
      `${provider} rate-limited the organization's own ${provider} key; retry later, or change its mode with PUT /api/v1/provider-keys/${provider}`,
      { ...metadata, reason: 'provider_key_rate_limited' },
      (err as GatewayError).headers,
    );
  if (err instanceof GatewayError) err.metadata.organization_key = true;
  return err;
}

/** What the organization is told when its own key failed and the gateway's key served instead (no vendor text). */
export function ownKeyWarning(err: unknown, target: Target): string {
  const provider = target.provider.id;
  const status = upstreamStatus(err);
  const why =
    status === 401 || status === 403
      ? `was refused (HTTP ${status})`
      : status === 429
        ? 'was rate-limited'
        : `failed (${status === undefined ? String((err as GatewayError).metadata?.reason ?? 'no answer') : `HTTP ${status}`})`;
  return `The organization's own ${provider} key ${why}; served on the gateway's key`;
}
