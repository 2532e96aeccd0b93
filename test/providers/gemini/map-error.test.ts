import { describe, expect, it } from 'vitest';
import { createGeminiAdapter, mapGeminiError } from '../../../src/providers/gemini/index.js';
import { geminiContext, loadJson } from './helpers.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const map = (status: number, fixture: string, headers: Record<string, string> = {}) =>
  mapGeminiError({ status, body: loadJson(fixture), headers }, { providerId: 'google', now: NOW });

describe('mapError: recorded Gemini error bodies', () => {
  it("400 INVALID_ARGUMENT stays 400 with Gemini's explanation", () => {
    expect(map(400, 'error-400-invalid-argument')).toEqual({
      status: 400,
      message:
        'Please ensure that function call turn comes immediately after a user turn or after a function response turn.',
      streamCode: 'server_error',
      upstreamCode: 'INVALID_ARGUMENT',
    });
  });

  it('a prompt over the token limit → 400 context_length_exceeded', () => {
    expect(map(400, 'error-400-token-limit')).toEqual({
      status: 400,
      message: 'The input token count (1245771) exceeds the maximum number of tokens allowed (1048576).',
      streamCode: 'context_length_exceeded',
      upstreamCode: 'INVALID_ARGUMENT',
    });
  });

  it("a bad API key (400 with API_KEY_INVALID) and 403 are the operator's: 502, no vendor text", () => {
    for (const [status, fixture] of [
      [400, 'error-400-api-key-invalid'],
      [403, 'error-403'],
    ] as const) {
      const info = map(status, fixture);
      expect(info).toMatchObject({ status: 502, streamCode: 'server_error' });
      expect(info.message).toContain('credentials');
      expect(info.message).not.toContain('123456789012');
    }
  });

  it('FAILED_PRECONDITION (billing, region) → 502', () => {
    expect(map(400, 'error-400-failed-precondition')).toMatchObject({
      status: 502,
      streamCode: 'server_error',
      upstreamCode: 'FAILED_PRECONDITION',
    });
  });

  it('404 for an unknown model stays 404; any other 404 is 502', () => {
    expect(map(404, 'error-404-model')).toMatchObject({
      status: 404,
      message: expect.stringContaining('models/gemini-1.0-pro is not found'),
    });
    expect(
      mapGeminiError({ status: 404, body: '<html>Not Found</html>' }, { providerId: 'google', now: NOW }),
    ).toMatchObject({ status: 502 });
  });

  it('429 keeps a retry hint: the Retry-After header, else RetryInfo.retryDelay rounded up', () => {
    expect(map(429, 'error-429')).toEqual({
      status: 429,
      message: 'Upstream provider google rate limit reached; retry later.',
      streamCode: 'rate_limit',
      retryAfterSeconds: 35,
      upstreamCode: 'RESOURCE_EXHAUSTED',
    });
    expect(map(429, 'error-429', { 'Retry-After': '7' }).retryAfterSeconds).toBe(7);
  });

  it('500 INTERNAL and 504 DEADLINE_EXCEEDED → 502; 503 UNAVAILABLE → 503', () => {
    expect(map(500, 'error-500')).toEqual({
      status: 502,
      message: 'Upstream provider google failed (HTTP 500).',
      streamCode: 'server_error',
      upstreamCode: 'INTERNAL',
    });
    expect(map(504, 'error-504')).toMatchObject({ status: 502, upstreamCode: 'DEADLINE_EXCEEDED' });
    expect(map(503, 'error-503')).toMatchObject({ status: 503, upstreamCode: 'UNAVAILABLE' });
  });

  it('reads the array-wrapped form, raw text and bytes; redacts keys echoed in messages', () => {
    const wrapped = [{ error: { code: 400, message: 'Invalid JSON payload received.', status: 'INVALID_ARGUMENT' } }];
    expect(mapGeminiError({ status: 400, body: wrapped }, { providerId: 'google', now: NOW })).toMatchObject({
      status: 400,
      message: 'Invalid JSON payload received.',
    });
    expect(
      mapGeminiError(
        { status: 400, body: new TextEncoder().encode(JSON.stringify(wrapped[0])) },
        { providerId: 'google', now: NOW },
      ),
    ).toMatchObject({
      message: 'Invalid JSON payload received.',
    });
    expect(
      mapGeminiError(
        { status: 400, body: 'key AIzaSyA1234567890abcdefghij is odd' },
        { providerId: 'google', now: NOW },
      ).message,
    ).toBe('key AIza*** is odd');
  });

  it('goes through the adapter with the provider id and clock', () => {
    const adapter = createGeminiAdapter({ now: () => NOW });
    const info = adapter.mapError(
      { status: 429, body: loadJson('error-429'), headers: { 'retry-after': 'Mon, 01 Jun 2026 12:00:10 GMT' } },
      geminiContext(),
    );
    expect(info.retryAfterSeconds).toBe(10);
  });
});

describe('Google text a client reads', () => {
  it("a 400 over HTTP keeps Google's explanation without the project number or quota metric; URLs stay whole", () => {
    const body = {
      error: {
        code: 400,
        status: 'INVALID_ARGUMENT',
        message:
          'Request for project 123456789012 (projects/123456789012) exceeds generativelanguage.googleapis.com/generate_content_requests; see https://generativelanguage.googleapis.com/v1beta/models',
      },
    };
    expect(mapGeminiError({ status: 400, body }, { providerId: 'google', now: NOW }).message).toBe(
      'Request for project [redacted] (projects/[redacted]) exceeds [quota metric]; see https://generativelanguage.googleapis.com/v1beta/models',
    );
  });
});
