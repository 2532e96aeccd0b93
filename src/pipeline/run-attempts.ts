// The only place that retries: tries the planned endpoints in order until one serves, bounded by a number of
// attempts and a time budget, skipping endpoints whose circuit breaker refuses, recording every attempt. Adapters
// never retry. Retry-After: a short one is waited for before the same provider is asked again; a long one skips the
// provider's remaining candidates. An attempt on an organization's own provider key is that organization's business:
// it never feeds or asks the shared circuit breaker, its refusal (401, 403, 429) lets the operator's key be tried
// next (mode `prefer`), and when it is the last word the error names the organization's key (own-key-error.ts).
import type { GenerationAttempt } from '../db/tables/generations.js';
import { GatewayError } from '../core/gateway-error.js';
import { UpstreamHttpError } from './call-upstream.js';
import type { Target } from '../routing/resolve-target.js';
import type { CircuitBreaker } from '../routing/circuit-breaker.js';
import { errorCodeOf, isQueueTimeout, isRetryable, upstreamStatusOf } from './retryable.js';
import { isOwnKeyRefusal, ownKeyError, ownKeyWarning } from './own-key-error.js';

/** Retry-After values up to this are waited for (when the budget allows); longer ones skip that provider. */
export const SHORT_RETRY_AFTER_MS = 2000;

export interface AttemptLimits {
  maxAttempts: number;
  budgetMs: number;
}

export interface RunAttemptsInput<T> {
  targets: readonly Target[];
  breaker: CircuitBreaker;
  limits: AttemptLimits;
  /** Milliseconds (injectable). */
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  signal: { readonly aborted: boolean };
  /** One attempt; `last` is true when no other endpoint can follow it. */
  attempt: (target: Target, last: boolean) => Promise<T>;
  /** Called after every failed attempt (reset what it left behind: a failed attempt is never billed). */
  onFailedAttempt: () => void;
  /** Every attempt, in order. */
  attempts: GenerationAttempt[];
}

export function endpointKeyOf(target: Target): string {
  return target.entry.endpointKey ?? `${target.entry.id}@${target.provider.id}`;
}

export interface AttemptsResult<T> {
  value: T;
  target: Target;
  /** Why an attempt on the organization's own key failed before the gateway's key served (the organization is told). */
  ownKeyFailure?: string;
}

export async function runAttempts<T>(input: RunAttemptsInput<T>): Promise<AttemptsResult<T>> {
  const { targets, breaker, limits, now } = input;
  const started = now();
  let lastError: unknown;
  /** The target whose failure `lastError` is. */
  let lastTarget: Target | undefined;
  let ownKeyFailure: string | undefined;
  let tried = 0;
  let skipped: Set<string> | undefined;
  let waitUntil: Map<string, number> | undefined;
  for (let i = 0; i < targets.length && tried < limits.maxAttempts; i++) {
    const target = targets[i];
    const provider = target.provider.id;
    const shared = target.byok === undefined;
    // An own key has limits of its own: the operator key's Retry-After does not hold it back, nor the other way.
    const limitKey = shared ? provider : `${provider}#own`;
    if (tried > 0 && now() - started >= limits.budgetMs) break;
    if (skipped?.has(limitKey)) continue;
    const key = endpointKeyOf(target);
    if (shared) {
      const allowed = breaker.allowRequest(key);
      if (allowed === false || (allowed !== true && !(await allowed))) continue;
    }
    if (waitUntil) {
      const wait = (waitUntil.get(limitKey) ?? 0) - now();
      if (wait > 0) await input.sleep(wait);
      if (input.signal.aborted) break;
    }
    const last = i === targets.length - 1 || tried + 1 >= limits.maxAttempts;
    // The first attempt starts with the request's routing (one clock read less on the common path).
    const t0 = tried === 0 && i === 0 ? started : now();
    try {
      const value = await input.attempt(target, last);
      // A shared breaker writes outcomes in the background: the answer does not wait for Redis.
      if (shared) void breaker.recordSuccess(key);
      input.attempts.push({
        provider,
        model: target.entry.id,
        status: 200,
        error_code: null,
        latency_ms: Math.round(now() - t0),
      });
      return ownKeyFailure && shared ? { value, target, ownKeyFailure } : { value, target };
    } catch (err) {
      tried++;
      lastError = err;
      lastTarget = target;
      input.onFailedAttempt();
      // Which endpoint failed, also for failures raised past the HTTP exchange (a stream broken before its first
      // event).
      if (err instanceof GatewayError && err.metadata.provider === undefined) err.metadata.provider = provider;
      input.attempts.push({
        provider,
        model: target.entry.id,
        status: upstreamStatusOf(err),
        error_code: errorCodeOf(err),
        latency_ms: Math.round(now() - t0),
      });
      const ownRefused = !shared && isOwnKeyRefusal(err);
      if (!shared) ownKeyFailure = ownKeyWarning(err, target);
      if (input.signal.aborted || !(isRetryable(err) || ownRefused)) {
        // The endpoint answered; the request was at fault (or the client left): no verdict on its health.
        if (!input.signal.aborted && shared) void breaker.recordSuccess(key);
        throw shared ? err : ownKeyError(err, target);
      }
      if (isQueueTimeout(err)) {
        skipped ??= new Set();
        skipped.add(limitKey);
        continue;
      }
      if (shared) void breaker.recordFailure(key);
      const retryAfterMs =
        err instanceof UpstreamHttpError && err.info.retryAfterSeconds !== undefined
          ? err.info.retryAfterSeconds * 1000
          : undefined;
      if (retryAfterMs !== undefined) {
        if (retryAfterMs <= SHORT_RETRY_AFTER_MS && now() + retryAfterMs - started < limits.budgetMs) {
          waitUntil ??= new Map();
          waitUntil.set(limitKey, now() + retryAfterMs);
        } else {
          skipped ??= new Set();
          skipped.add(limitKey);
        }
      }
    }
  }
  if (lastError !== undefined) throw lastTarget?.byok ? ownKeyError(lastError, lastTarget) : lastError;
  throw new GatewayError(
    503,
    'Every endpoint that can serve this request is temporarily unavailable (circuit breaker open after repeated failures); retry shortly',
    {
      reason: 'endpoint_unavailable',
      endpoints: targets.map((t) => ({ model: t.entry.id, provider: t.provider.id })),
    },
  );
}
