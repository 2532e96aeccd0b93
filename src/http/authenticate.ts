// The credential of a request, read from its headers (or query), resolved to a Principal by auth/ and checked
// against the route; the principal is left on ctx.state for the handlers.
import type { Context } from 'koa';
import type { Principal } from '../auth/principal.js';
import type { RequestAuthority } from '../auth/authenticate-request.js';
import { ORGANIZATION_HEADER } from '../auth/organization-choice.js';
import { GatewayError } from '../core/gateway-error.js';

const BEARER = /^Bearer\s+(\S+)\s*$/i;

export function bearerToken(header: string | undefined): string {
  if (!header) throw new GatewayError(401, 'Missing Authorization header: send "Authorization: Bearer <API_KEY>"');
  const match = BEARER.exec(header);
  if (!match) throw new GatewayError(401, 'Malformed Authorization header: expected "Bearer <API_KEY>"');
  return match[1];
}

/** Where an operation also takes its credential besides `Authorization: Bearer` (an `apiKey` scheme it declares). */
export interface ApiKeySource {
  in: 'header' | 'query';
  /** Header name (lower case) or query parameter name. */
  name: string;
}

function apiKeyOf(ctx: Context, source: ApiKeySource): string | undefined {
  if (source.in === 'header') return ctx.get(source.name) || undefined;
  const value = ctx.query[source.name];
  return (Array.isArray(value) ? value[0] : value) || undefined;
}

function describeSources(sources: readonly ApiKeySource[]): string {
  return [
    ...sources.map((s) => (s.in === 'header' ? `"${s.name}: <API_KEY>"` : `"?${s.name}=<API_KEY>"`)),
    '"Authorization: Bearer <API_KEY>"',
  ].join(' or ');
}

/**
 * The credential of a request: `Authorization: Bearer`, or, on operations that declare them, an API key header or
 * query parameter (`x-api-key` on the Anthropic Messages routes; `x-goog-api-key` and `?key=` on the Gemini routes,
 * where Google's clients send them). Authorization wins when several are sent, then the sources in declared order.
 */
export function requestSecret(ctx: Context, sources: readonly ApiKeySource[]): string {
  const authorization = ctx.get('authorization') || undefined;
  if (!authorization && sources.length > 0) {
    for (const source of sources) {
      const key = apiKeyOf(ctx, source);
      if (key) return key.trim();
    }
    throw new GatewayError(401, `Missing credential: send ${describeSources(sources)}`);
  }
  return bearerToken(authorization);
}

export function authenticator(authority: RequestAuthority) {
  return async (ctx: Context, sources: readonly ApiKeySource[] = [], operationId?: string): Promise<void> => {
    const secret = requestSecret(ctx, sources);
    const organization = ctx.get(ORGANIZATION_HEADER).trim();
    ctx.state.principal = await authority({ secret, path: ctx.path, operationId, organization });
  };
}

export function principalOf(ctx: Context): Principal {
  const principal = ctx.state.principal as Principal | undefined;
  if (!principal) throw new GatewayError(401, 'Missing or invalid credential');
  return principal;
}
