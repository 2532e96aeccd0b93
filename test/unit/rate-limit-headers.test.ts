// Each door's rendering of a key's rate state (formats/shared/rate-limit-headers.ts) and the headers of an error at
// the edge (http/rate-limit-exchange.ts): every 429 has Retry-After in whole seconds, at least 1, whatever raised it.
import type { Context } from 'koa';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/core/gateway-error.js';
import type { RateReport } from '../../src/core/rate-report.js';
import { FRONT_DOORS } from '../../src/formats/front-doors.js';
import {
  ANTHROPIC_RATE_LIMIT_HEADERS,
  OPENAI_RATE_LIMIT_HEADERS,
  OPENROUTER_RATE_LIMIT_HEADERS,
} from '../../src/formats/shared/rate-limit-headers.js';
import { errorHeaders, useRateLimitHeaders } from '../../src/http/rate-limit-exchange.js';

const AT = Date.parse('2026-03-01T12:00:00.000Z');
const REPORT: RateReport = {
  requests: { limit: 60, remaining: 59, resetAtMs: AT + 1000, resetInMs: 1000 },
  tokens: { limit: 150_000, remaining: 149_984, resetAtMs: AT + 360_000, resetInMs: 360_000 },
};
const OPENROUTER = { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59', 'x-ratelimit-reset': String(AT + 1000) };

describe("each door's rate-limit headers", () => {
  it("OpenAI's doors: OpenRouter's and OpenAI's, resets as durations", () => {
    expect(OPENAI_RATE_LIMIT_HEADERS.state(REPORT)).toEqual({
      ...OPENROUTER,
      'x-ratelimit-limit-requests': '60',
      'x-ratelimit-remaining-requests': '59',
      'x-ratelimit-reset-requests': '1s',
      'x-ratelimit-limit-tokens': '150000',
      'x-ratelimit-remaining-tokens': '149984',
      'x-ratelimit-reset-tokens': '6m0s',
    });
    expect(OPENAI_RATE_LIMIT_HEADERS.retry(1500)).toEqual({ 'retry-after-ms': '1500' });
  });

  it("Anthropic's door: OpenRouter's and Anthropic's requests and tokens families, resets as RFC 3339 times", () => {
    const report = { ...REPORT, requests: { ...REPORT.requests!, resetAtMs: AT + 1200 } };
    expect(ANTHROPIC_RATE_LIMIT_HEADERS.state(report)).toEqual({
      ...OPENROUTER,
      'x-ratelimit-reset': String(AT + 1200),
      'anthropic-ratelimit-requests-limit': '60',
      'anthropic-ratelimit-requests-remaining': '59',
      // Rounded up to the whole second: a client waiting until then finds the bucket full.
      'anthropic-ratelimit-requests-reset': '2026-03-01T12:00:02Z',
      'anthropic-ratelimit-tokens-limit': '150000',
      'anthropic-ratelimit-tokens-remaining': '149984',
      'anthropic-ratelimit-tokens-reset': '2026-03-01T12:06:00Z',
    });
    expect(ANTHROPIC_RATE_LIMIT_HEADERS.retry(1500)).toEqual({});
  });

  it("the Gemini door: OpenRouter's alone; a family without a limit is left out", () => {
    expect(OPENROUTER_RATE_LIMIT_HEADERS.state(REPORT)).toEqual(OPENROUTER);
    expect(OPENAI_RATE_LIMIT_HEADERS.state({ tokens: REPORT.tokens })).toEqual({
      'x-ratelimit-limit-tokens': '150000',
      'x-ratelimit-remaining-tokens': '149984',
      'x-ratelimit-reset-tokens': '6m0s',
    });
    expect(ANTHROPIC_RATE_LIMIT_HEADERS.state({})).toEqual({});
  });

  it('each descriptor names its family', () => {
    expect(Object.fromEntries(FRONT_DOORS.map((door) => [door.apiFormat, door.rateLimitHeaders]))).toEqual({
      chat_completions: OPENAI_RATE_LIMIT_HEADERS,
      responses: OPENAI_RATE_LIMIT_HEADERS,
      messages: ANTHROPIC_RATE_LIMIT_HEADERS,
      gemini: OPENROUTER_RATE_LIMIT_HEADERS,
    });
  });
});

describe('the headers of an error', () => {
  const ctxOf = (door?: typeof OPENAI_RATE_LIMIT_HEADERS) => {
    const ctx = { state: {} } as Context;
    if (door) useRateLimitHeaders(ctx, door);
    return ctx;
  };
  const tooMany = (headers: Record<string, string> = {}, rate?: RateReport) =>
    Object.assign(new GatewayError(429, 'slow down', {}, headers), { rate });

  it('a 429 that named no wait (an upstream without Retry-After, a stream refused before its start) waits 1 s', () => {
    expect(errorHeaders(ctxOf(OPENAI_RATE_LIMIT_HEADERS), tooMany())).toEqual({
      'retry-after': '1',
      'retry-after-ms': '1000',
    });
    expect(errorHeaders(ctxOf(ANTHROPIC_RATE_LIMIT_HEADERS), tooMany())).toEqual({ 'retry-after': '1' });
    expect(errorHeaders(ctxOf(), tooMany({ 'retry-after': '0' }))).toEqual({ 'retry-after': '1' });
  });

  it("a rate limit's own wait is told to the millisecond on OpenAI's doors, in whole seconds in Retry-After", () => {
    const refused = tooMany({ 'retry-after': '1' }, { requests: REPORT.requests, retryAfterMs: 70 });
    expect(errorHeaders(ctxOf(OPENAI_RATE_LIMIT_HEADERS), refused)).toMatchObject({
      'x-ratelimit-remaining-requests': '59',
      'retry-after': '1',
      'retry-after-ms': '70',
    });
  });

  it("renders the key's rate state it carries; the refusal's own header wins (a pass window's reset)", () => {
    const quota = tooMany(
      { 'retry-after': '17940', 'x-ratelimit-reset': '1771000000000' },
      { requests: REPORT.requests },
    );
    expect(errorHeaders(ctxOf(OPENAI_RATE_LIMIT_HEADERS), quota)).toMatchObject({
      'x-ratelimit-reset': '1771000000000',
      'x-ratelimit-reset-requests': '1s',
      'retry-after': '17940',
      'retry-after-ms': '17940000',
    });
    const broke = Object.assign(new GatewayError(402, 'no credits'), { rate: REPORT });
    expect(errorHeaders(ctxOf(ANTHROPIC_RATE_LIMIT_HEADERS), broke)).not.toHaveProperty('retry-after');
    expect(errorHeaders(ctxOf(ANTHROPIC_RATE_LIMIT_HEADERS), broke)).toHaveProperty(
      'anthropic-ratelimit-requests-remaining',
      '59',
    );
  });
});
