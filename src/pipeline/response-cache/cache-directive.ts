// The client's `X-Modelgate-Cache` header: whether this request may read the response cache, and for how long its
// answer is kept. Without the header (or with `off`) the cache is not touched at all.
import { GatewayError } from '../../core/gateway-error.js';

export const DEFAULT_TTL_SECONDS = 3600;
export const MAX_TTL_SECONDS = 86_400;

export interface CacheDirective {
  /** false for `refresh`: answer from the provider and overwrite the entry. */
  read: boolean;
  ttlSeconds: number;
}

function invalid(value: string, why: string): GatewayError {
  return new GatewayError(
    400,
    `Invalid X-Modelgate-Cache header ${JSON.stringify(value.slice(0, 100))}: ${why}. Send "on", "ttl=SECONDS" (1 to ${MAX_TTL_SECONDS}), "refresh" (optionally with ttl=), or "off"`,
    {
      reason: 'invalid_cache_header',
      field: 'x-modelgate-cache',
    },
  );
}

/** undefined: leave the cache alone (no header, or `off`). Comma-separated tokens, case-insensitive. */
export function parseCacheDirective(header: string | undefined): CacheDirective | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  let read = true;
  let on = false;
  let off = false;
  let ttlSeconds: number | undefined;
  for (const raw of header.split(',')) {
    const token = raw.trim().toLowerCase();
    if (token === 'on') on = true;
    else if (token === 'off') off = true;
    else if (token === 'refresh') read = false;
    else if (token.startsWith('ttl=')) {
      const text = token.slice(4);
      if (ttlSeconds !== undefined) throw invalid(header, 'ttl is given twice');
      if (!/^\d{1,9}$/.test(text)) throw invalid(header, 'ttl must be a whole number of seconds');
      ttlSeconds = Number(text);
      if (ttlSeconds < 1 || ttlSeconds > MAX_TTL_SECONDS)
        throw invalid(header, `ttl=${ttlSeconds} is outside 1 to ${MAX_TTL_SECONDS} seconds (24 hours)`);
    } else throw invalid(header, `unknown token ${JSON.stringify(token.slice(0, 40))}`);
  }
  if (off) {
    if (on || !read || ttlSeconds !== undefined) throw invalid(header, '"off" cannot be combined with other tokens');
    return undefined;
  }
  return { read, ttlSeconds: ttlSeconds ?? DEFAULT_TTL_SECONDS };
}
