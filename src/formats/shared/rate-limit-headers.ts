// How a door tells a key's rate-limit state, in the headers its clients already read; each door's descriptor names
// one (formats/<door>/door.ts), and the HTTP layer writes it (http/rate-limit-exchange.ts). Every door keeps
// OpenRouter's X-RateLimit-* (the tightest requests-per-minute budget; reset as Unix ms), which OpenRouter clients
// read. On top:
// - OpenAI's doors (chat completions, Responses, embeddings): x-ratelimit-{limit,remaining,reset}-{requests,tokens},
//   the resets as durations until the bucket is full again ("6m0s"), and on a 429 `retry-after-ms`, the wait in
//   milliseconds, which Azure OpenAI sends and the official OpenAI SDKs read before Retry-After.
// - Anthropic's (Messages, count_tokens): anthropic-ratelimit-{requests,tokens}-{limit,remaining,reset}, the resets as
//   RFC 3339 times (whole seconds, rounded up). The gateway's token limit counts input and output tokens together, so
//   it is the `tokens` family (Anthropic's "most restrictive token limit"); the input-tokens and output-tokens
//   families describe limits the gateway does not have and are not sent.
// - Gemini's: nothing more (Google sends no rate-limit headers, and its clients read none).
import type { RateReport, RateState } from '../../core/rate-report.js';
import { openAiDuration } from './openai-duration.js';

export interface RateLimitHeaders {
  /** The headers of the key's rate state: with an admitted request's answer, and with a refusal at or after it. */
  state(report: RateReport): Record<string, string>;
  /** What a 429 carries beside Retry-After, from the wait in milliseconds. */
  retry(retryAfterMs: number): Record<string, string>;
}

function openRouterHeaders({ requests }: RateReport): Record<string, string> {
  if (!requests) return {};
  return {
    'x-ratelimit-limit': String(requests.limit),
    'x-ratelimit-remaining': String(requests.remaining),
    'x-ratelimit-reset': String(requests.resetAtMs),
  };
}

const NOTHING_MORE = (): Record<string, string> => ({});

/** OpenRouter's X-RateLimit-* alone: the Gemini door. */
export const OPENROUTER_RATE_LIMIT_HEADERS: RateLimitHeaders = { state: openRouterHeaders, retry: NOTHING_MORE };

function openAiFamily(headers: Record<string, string>, family: 'requests' | 'tokens', state?: RateState): void {
  if (!state) return;
  headers[`x-ratelimit-limit-${family}`] = String(state.limit);
  headers[`x-ratelimit-remaining-${family}`] = String(state.remaining);
  headers[`x-ratelimit-reset-${family}`] = openAiDuration(state.resetInMs);
}

export const OPENAI_RATE_LIMIT_HEADERS: RateLimitHeaders = {
  state: (report) => {
    const headers = openRouterHeaders(report);
    openAiFamily(headers, 'requests', report.requests);
    openAiFamily(headers, 'tokens', report.tokens);
    return headers;
  },
  retry: (retryAfterMs) => ({ 'retry-after-ms': String(Math.max(1, Math.ceil(retryAfterMs))) }),
};

/** RFC 3339 in UTC, whole seconds, rounded up so that a client waiting until then finds the bucket full. */
function rfc3339(ms: number): string {
  return new Date(Math.ceil(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

function anthropicFamily(headers: Record<string, string>, family: 'requests' | 'tokens', state?: RateState): void {
  if (!state) return;
  headers[`anthropic-ratelimit-${family}-limit`] = String(state.limit);
  headers[`anthropic-ratelimit-${family}-remaining`] = String(state.remaining);
  headers[`anthropic-ratelimit-${family}-reset`] = rfc3339(state.resetAtMs);
}

export const ANTHROPIC_RATE_LIMIT_HEADERS: RateLimitHeaders = {
  state: (report) => {
    const headers = openRouterHeaders(report);
    anthropicFamily(headers, 'requests', report.requests);
    anthropicFamily(headers, 'tokens', report.tokens);
    return headers;
  },
  retry: NOTHING_MORE,
};
