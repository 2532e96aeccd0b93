// The client-facing refusals of subscription admission: 403 without a subscription, 429 while a window is
// used up (Retry-After = when the blocking windows have room again), 400 when one request is larger
// than a whole window (waiting would never help).
import { nanosToUsd } from '../core/money.js';
import { GatewayError } from '../core/gateway-error.js';
import type { QuotaRefusal } from './quota-decision.js';
import { secondsUntil, type PassWindow } from './windows.js';

const WINDOW_NAMES: Record<PassWindow, string> = {
  five_hour: '5-hour rolling window',
  weekly: 'weekly window (resets Monday 00:00 UTC)',
  monthly: 'monthly window (resets on the 1st, 00:00 UTC)',
};

export function noSubscriptionError(modelId: string): GatewayError {
  return new GatewayError(
    403,
    `Model ${modelId} is part of the flat subscription (9.99 USD per month) and this account has no active subscription. ` +
      'Subscribe, or use a model outside "pass/" with credits.',
    { reason: 'subscription_required', model: modelId },
  );
}

export function quotaError(refusal: QuotaRefusal, now: Date): GatewayError {
  const used = nanosToUsd(refusal.usedNanos);
  const limit = nanosToUsd(refusal.limitNanos);
  const required = nanosToUsd(refusal.requiredNanos);
  const metadata = { reason: 'pass_quota_exceeded', window: refusal.window, used, limit, required, currency: 'USD' };
  if (refusal.retryAt === undefined) {
    return new GatewayError(
      400,
      `This request may use up to ${required} USD of subscription usage, more than the whole ${WINDOW_NAMES[refusal.window]} ` +
        `(${limit} USD). Lower max_tokens or shorten the prompt.`,
      { ...metadata, reason: 'request_exceeds_pass_window' },
    );
  }
  const retryAfter = secondsUntil(refusal.retryAt, now);
  return new GatewayError(
    429,
    `Subscription usage limit reached: the ${WINDOW_NAMES[refusal.window]} has ${used} of ${limit} USD used and this request ` +
      `may use up to ${required} USD. Retry after ${refusal.retryAt.toISOString()} (${retryAfter} s), or set a lower max_tokens.`,
    { ...metadata, resets_at: refusal.retryAt.toISOString(), retry_after_seconds: retryAfter },
    { 'retry-after': String(retryAfter), 'x-ratelimit-reset': String(refusal.retryAt.getTime()) },
  );
}
