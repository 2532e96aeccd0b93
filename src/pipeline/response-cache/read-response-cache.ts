// A response-cache read, admission first: the request is admitted (admission/admit.ts) as a hit would be (the key's
// allow-list for the model it names, one request and its prompt estimate against the key's per-minute limits, a
// pass/ model's live subscription), and only then is its key computed (a hash of the whole request, up to the body
// cap) and looked up.
// A request refused here costs no hash. One admitted is counted once, hit or miss: a miss is served with
// GenerationClient.requestCounted, and its own admission takes the rest (free allowance, credits, quota).
import type { Principal } from '../../auth/principal.js';
import { releaseAdmission } from '../../billing/admission.js';
import type { CatalogEntry } from '../../catalog/types.js';
import { admit } from '../admission/admit.js';
import { cacheKey, type RequestHeaders } from './cache-key.js';
import type { CacheableRequest } from './cacheable-request.js';
import type { CachedAnswer } from './cached-answer.js';
import type { HitParts, ReadAdmission } from './admit-cache-hit.js';

export interface CacheRead {
  key: string;
  /** The stored answer in the request's form; none for `refresh`, which only writes. */
  answer?: CachedAnswer;
  admitted: ReadAdmission;
}

export interface CacheReadRequest {
  principal: Principal;
  request: CacheableRequest;
  headers: RequestHeaders;
  /** false for `refresh`: the entry is only written. */
  read: boolean;
}

/** undefined when the request names no catalog model: no answer was ever kept for it, and the door says why (404, 400). */
export async function readResponseCache(parts: HitParts, input: CacheReadRequest): Promise<CacheRead | undefined> {
  const { principal, request } = input;
  const entry = parts.catalog.get(request.model);
  if (!entry) return undefined;
  const admitted = await admitRead(parts, principal, entry, request.estimatedTokens);
  try {
    const key = cacheKey(principal.organizationId, request, input.headers);
    const found = input.read ? await parts.responseCache.lookup(key) : undefined;
    // An entry of the other form cannot be (the form is in the key); checked anyway, as the entry is untrusted text.
    const answer = found && (found.frames !== undefined) === request.stream ? found : undefined;
    return { key, answer, admitted };
  } catch (err) {
    await releaseRead(parts, admitted);
    throw err;
  }
}

/** Gives back what the read held for a hit that did not happen (once; the hit's admission takes it otherwise). */
export async function releaseRead(parts: Pick<HitParts, 'db'>, admitted: ReadAdmission): Promise<void> {
  const hold = admitted.pass;
  admitted.pass = undefined;
  if (hold) await releaseAdmission(parts.db, hold);
}

async function admitRead(
  parts: HitParts,
  principal: Principal,
  entry: CatalogEntry,
  estimatedTokens: number,
): Promise<ReadAdmission> {
  // What a pass/ hit takes (it costs no quota); the miss's own admission reserves its bound.
  const { rate, admission } = await admit(parts, {
    path: 'cache-read',
    principal,
    candidates: [{ entry }],
    estimatedTokens,
    freeAllowance: false,
    spend: { kind: 'subscription' },
  });
  return { rate, pass: admission };
}
