// The response-cache key: the account, and the request as the pipeline serves it (cacheable-request.ts): the door, the
// gateway model id it names, what routing and admission read of it, its whole body (every message, tool, sampling,
// routing and pricing field), the protocol headers the door forwards, the gateway's own option headers, and the
// answer's form. Object keys are sorted, so their order does not matter. Hashed (SHA-256): the key never holds prompt
// text, and another account's key can never match.
import { createHash } from 'node:crypto';
import type { CacheableRequest } from './cacheable-request.js';

/** Request headers as Node parsed them (lower-case names). */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

const GATEWAY_OPTION_PREFIX = 'x-modelgate-';
/** The directive itself: `on`, `refresh` and `ttl=` read or write the same entry. */
const CACHE_DIRECTIVE_HEADER = 'x-modelgate-cache';

/** JSON with every object's keys in sorted order; arrays keep their order (it is meaningful). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}

/**
 * The gateway's own request options (`X-Modelgate-Auto-Cache`, and any added later under the prefix): they change what
 * is sent upstream or what it costs, whatever the door.
 */
function gatewayOptions(headers: RequestHeaders): Record<string, string> {
  const options: Record<string, string> = {};
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (!name.startsWith(GATEWAY_OPTION_PREFIX) || name === CACHE_DIRECTIVE_HEADER || value === undefined) continue;
    options[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return options;
}

export function cacheKey(userId: string, request: CacheableRequest, headers: RequestHeaders): string {
  const hash = createHash('sha256');
  // Version first: a change to what a key covers or an entry holds starts a new key space.
  hash.update(
    canonicalJson({
      v: 2,
      user: userId,
      door: request.apiFormat,
      model: request.model,
      facts: request.facts,
      body: request.wire.body,
      forwarded: request.wire.clientHeaders,
      options: gatewayOptions(headers),
      stream: request.stream,
      framing: request.stream ? (request.framing ?? 'sse') : undefined,
    }),
  );
  return hash.digest('hex');
}
