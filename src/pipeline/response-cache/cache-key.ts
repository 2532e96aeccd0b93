// The response-cache key: the account, the front door, the model, the whole request body as it affects the answer
// (every message, tool and sampling field), with object keys sorted so that their order does not matter, and the
// form of the answer (stream or JSON, which the body alone may not say) plus any protocol headers that change the
// answer. Hashed (SHA-256): the key never holds prompt text, and another account's key can never match.
import { createHash } from 'node:crypto';

export interface CacheKeyParts {
  userId: string;
  /** The front door (api_format). */
  door: string;
  /** The request body as the door parsed it. */
  body: unknown;
  /** The answer's form, as negotiated (an omitted `stream` may mean either). */
  stream: boolean;
  /** Request headers of the door's protocol that change the answer (Anthropic's version and betas). */
  variant?: Readonly<Record<string, string>>;
}

/** JSON with every object's keys in sorted order; arrays keep their order (it is meaningful). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  const entries = Object.keys(value as Record<string, unknown>)
    .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
  return `{${entries.join(',')}}`;
}

export function cacheKey(parts: CacheKeyParts): string {
  const hash = createHash('sha256');
  // Version first: a change to what an entry holds starts a new key space.
  hash.update(canonicalJson({ v: 1, user: parts.userId, door: parts.door, stream: parts.stream, variant: parts.variant ?? {}, body: parts.body }));
  return hash.digest('hex');
}
