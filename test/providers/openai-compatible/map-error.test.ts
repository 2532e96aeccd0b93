import { describe, expect, it } from 'vitest';
import {
  createOpenAICompatibleAdapter,
  mapError,
  parseRetryAfter,
} from '../../../src/providers/openai-compatible/index.js';
import { context, loadJson } from '../../helpers/stream-replay.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');

describe('mapError: recorded vendor error bodies', () => {
  it('OpenAI 429 rate limit → 429 with Retry-After, no organization id leaked', () => {
    const info = mapError(
      {
        status: 429,
        body: loadJson('openai', 'error-429'),
        headers: { 'retry-after': '3', 'x-ratelimit-remaining-tokens': '0' },
      },
      { providerId: 'openai', now: NOW },
    );
    expect(info).toEqual({
      status: 429,
      message: 'Upstream provider openai rate limit reached; retry later.',
      streamCode: 'rate_limit',
      retryAfterSeconds: 3,
      upstreamCode: 'rate_limit_exceeded',
    });
    expect(JSON.stringify(info)).not.toContain('org-AbC123xYz');
  });

  it('OpenAI 400 context length → 400 with context_length_exceeded', () => {
    expect(
      mapError(
        { status: 400, body: loadJson('openai', 'error-400-context-length') },
        { providerId: 'openai', now: NOW },
      ),
    ).toEqual({
      status: 400,
      message:
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.",
      streamCode: 'context_length_exceeded',
      upstreamCode: 'context_length_exceeded',
    });
  });

  it("OpenAI 500 → 502 server_error with the gateway's own message", () => {
    expect(
      mapError({ status: 500, body: loadJson('openai', 'error-500') }, { providerId: 'openai', now: NOW }),
    ).toEqual({
      status: 502,
      message: 'Upstream provider openai failed (HTTP 500).',
      streamCode: 'server_error',
      upstreamCode: 'server_error',
    });
  });

  it('OpenRouter 429 (numeric code in body) → 429', () => {
    expect(
      mapError({ status: 429, body: loadJson('openrouter', 'error-429') }, { providerId: 'openrouter', now: NOW }),
    ).toMatchObject({
      status: 429,
      streamCode: 'rate_limit',
      upstreamCode: '429',
    });
  });

  it("OpenRouter 402 on the gateway's account → 502, not the client's 402", () => {
    expect(
      mapError({ status: 402, body: loadJson('openrouter', 'error-402') }, { providerId: 'openrouter', now: NOW }),
    ).toMatchObject({
      status: 502,
      streamCode: 'server_error',
    });
  });

  it('is reachable through the adapter object with its injected clock', () => {
    const adapter = createOpenAICompatibleAdapter({ now: () => NOW });
    const info = adapter.mapError(
      { status: 429, body: '', headers: { 'Retry-After': 'Sun, 01 Jun 2025 12:00:30 GMT' } },
      context({ id: 'groq' }),
    );
    expect(info).toMatchObject({ status: 429, retryAfterSeconds: 30, message: expect.stringContaining('groq') });
  });
});

describe('mapError: status table', () => {
  it.each([
    [
      400,
      { error: { message: 'Invalid value for temperature', type: 'invalid_request_error', param: 'temperature' } },
      400,
      'server_error',
    ],
    [
      401,
      { error: { message: 'Incorrect API key provided: sk-proj-abcdefgh1234', code: 'invalid_api_key' } },
      502,
      'server_error',
    ],
    [403, 'Forbidden', 502, 'server_error'],
    [402, { error: { message: 'Insufficient Balance' } }, 502, 'server_error'],
    [
      404,
      {
        error: {
          message: 'The model `gpt-9` does not exist or you do not have access to it.',
          code: 'model_not_found',
        },
      },
      404,
      'server_error',
    ],
    [404, '<html><body>Not Found</body></html>', 502, 'server_error'],
    [408, '', 502, 'server_error'],
    [413, { error: { message: 'Request too large' } }, 400, 'server_error'],
    [
      422,
      {
        object: 'error',
        message: { detail: [{ type: 'extra_forbidden', loc: ['body', 'foo'], msg: 'Extra inputs are not permitted' }] },
        type: 'invalid_request_error',
      },
      400,
      'server_error',
    ],
    [
      429,
      { error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' } },
      502,
      'server_error',
    ],
    [500, 'upstream connect error', 502, 'server_error'],
    [502, '', 502, 'server_error'],
    [503, { error: { message: 'Service Unavailable' } }, 503, 'server_error'],
    [504, '', 502, 'server_error'],
    [529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 503, 'server_error'],
    [
      400,
      { error: { message: 'prompt is too long: 210000 tokens > 200000 maximum', type: 'invalid_request_error' } },
      400,
      'context_length_exceeded',
    ],
    [
      413,
      { error: { message: 'Please reduce the length of the messages or completion.' } },
      400,
      'context_length_exceeded',
    ],
    [
      400,
      {
        error: {
          message: 'Your request was rejected as a result of our safety system.',
          code: 'content_policy_violation',
        },
      },
      400,
      'content_filter',
    ],
  ])('%i %j → %i / %s', (status, body, expectedStatus, streamCode) => {
    const info = mapError({ status: status as number, body }, { providerId: 'vendor', now: NOW });
    expect(info.status).toBe(expectedStatus);
    expect(info.streamCode).toBe(streamCode);
    expect(info.message).not.toMatch(/sk-proj-abcdefgh1234/);
  });

  it('passes a 400 message through, and names the field Mistral rejected', () => {
    const info = mapError(
      {
        status: 422,
        body: {
          object: 'error',
          message: { detail: [{ loc: ['body', 'foo'], msg: 'Extra inputs are not permitted' }] },
        },
      },
      { providerId: 'mistral', now: NOW },
    );
    expect(info.message).toBe('Extra inputs are not permitted (body.foo)');
  });

  it('reads Gemini compat array bodies', () => {
    const info = mapError(
      {
        status: 400,
        body: [
          {
            error: {
              code: 400,
              message: 'The input token count exceeds the maximum number of tokens allowed (context window).',
              status: 'INVALID_ARGUMENT',
            },
          },
        ],
      },
      { providerId: 'google', now: NOW },
    );
    expect(info).toMatchObject({
      status: 400,
      streamCode: 'context_length_exceeded',
      upstreamCode: 'INVALID_ARGUMENT',
    });
  });

  it('accepts bodies as raw bytes', () => {
    const info = mapError(
      { status: 400, body: new TextEncoder().encode('{"error":{"message":"bad tools"}}') },
      { providerId: 'v', now: NOW },
    );
    expect(info.message).toBe('bad tools');
  });
});

describe('parseRetryAfter', () => {
  it('prefers retry-after-ms, rounds up, reads seconds and HTTP dates, ignores junk', () => {
    expect(parseRetryAfter({ 'retry-after-ms': '1500', 'retry-after': '9' }, NOW)).toBe(2);
    expect(parseRetryAfter({ 'retry-after': '0.2' }, NOW)).toBe(1);
    expect(parseRetryAfter({ 'Retry-After': ['12'] }, NOW)).toBe(12);
    expect(parseRetryAfter({ 'retry-after': 'Sun, 01 Jun 2025 12:01:00 GMT' }, NOW)).toBe(60);
    expect(parseRetryAfter({ 'retry-after': 'Sun, 01 Jun 2025 11:00:00 GMT' }, NOW)).toBe(0);
    expect(parseRetryAfter({ 'retry-after': 'soon' }, NOW)).toBeUndefined();
    expect(parseRetryAfter({}, NOW)).toBeUndefined();
  });
});
