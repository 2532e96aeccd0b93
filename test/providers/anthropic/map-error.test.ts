import { describe, expect, it } from 'vitest';
import { createAnthropicAdapter, mapError, mapStreamError } from '../../../src/providers/anthropic/index.js';
import { loadJson } from '../../helpers/stream-replay.js';
import { anthropicContext } from './anthropic-context.js';

const NOW = Date.parse('2025-06-01T12:00:00Z');
const map = (status: number, name: string, headers: Record<string, string> = {}) =>
  mapError({ status, body: loadJson('anthropic', name), headers }, { providerId: 'anthropic', now: NOW });

describe('mapError: recorded Anthropic error bodies', () => {
  it('400 prompt too long → 400 context_length_exceeded with the vendor text', () => {
    expect(map(400, 'error-400-prompt-too-long')).toEqual({
      status: 400,
      message: 'prompt is too long: 208310 tokens > 200000 maximum',
      streamCode: 'context_length_exceeded',
      upstreamCode: 'invalid_request_error',
    });
    expect(map(400, 'error-400-context-limit').streamCode).toBe('context_length_exceeded');
  });

  it("other 400s stay 400 with the vendor text; 413 request_too_large is the client's too", () => {
    expect(map(400, 'error-400-invalid')).toMatchObject({
      status: 400,
      streamCode: 'server_error',
      upstreamCode: 'invalid_request_error',
    });
    expect(map(400, 'error-400-invalid').message).toContain(
      'Each `tool_result` block must have a corresponding `tool_use` block',
    );
    expect(map(413, 'error-413')).toEqual({
      status: 400,
      message: 'Request exceeds the maximum allowed number of bytes.',
      streamCode: 'server_error',
      upstreamCode: 'request_too_large',
    });
    // Cloudflare answers 413 before the API does, sometimes as HTML.
    expect(
      mapError(
        { status: 413, body: '<html><body>413 Request Entity Too Large</body></html>' },
        { providerId: 'anthropic', now: NOW },
      ),
    ).toEqual({
      status: 400,
      message: 'Upstream provider anthropic rejected the request as invalid.',
      streamCode: 'server_error',
    });
  });

  it("the gateway account's credential, permission and billing failures are 502, never the vendor text", () => {
    for (const [status, name] of [
      [401, 'error-401'],
      [403, 'error-403'],
    ] as const) {
      const info = map(status, name);
      expect(info.status).toBe(502);
      expect(info.message).toBe(
        `Upstream provider anthropic rejected the gateway's credentials (HTTP ${status}); the operator must fix the provider key.`,
      );
    }
    expect(map(400, 'error-400-credit-balance')).toEqual({
      status: 502,
      message:
        "Upstream provider anthropic refused the request because of billing or usage limits on the gateway's account (HTTP 400).",
      streamCode: 'server_error',
      upstreamCode: 'invalid_request_error',
    });
    expect(map(429, 'error-429-spend-limit', { 'retry-after': '60' })).toMatchObject({
      status: 502,
      streamCode: 'server_error',
    });
    expect(
      mapError(
        { status: 402, body: { type: 'error', error: { type: 'billing_error', message: 'billing' } } },
        { providerId: 'anthropic', now: NOW },
      ).status,
    ).toBe(502);
  });

  it('404 for an unknown model → 404; a 404 without a model error means a wrong endpoint → 502', () => {
    expect(map(404, 'error-404-model')).toEqual({
      status: 404,
      message: 'model: claude-sonnet-9',
      streamCode: 'server_error',
      upstreamCode: 'not_found_error',
    });
    expect(mapError({ status: 404, body: 'Not Found' }, { providerId: 'anthropic', now: NOW })).toMatchObject({
      status: 502,
    });
  });

  it('429 → 429 rate_limit with Retry-After, without the organization id', () => {
    const info = map(429, 'error-429', { 'retry-after': '17', 'anthropic-ratelimit-input-tokens-remaining': '0' });
    expect(info).toEqual({
      status: 429,
      message: 'Upstream provider anthropic rate limit reached; retry later.',
      streamCode: 'rate_limit',
      retryAfterSeconds: 17,
      upstreamCode: 'rate_limit_error',
    });
    expect(JSON.stringify(info)).not.toContain('5c3a1e2b');
  });

  it('500 api_error → 502, 504 → 502, 529 overloaded_error → 503', () => {
    expect(map(500, 'error-500')).toEqual({
      status: 502,
      message: 'Upstream provider anthropic failed (HTTP 500).',
      streamCode: 'server_error',
      upstreamCode: 'api_error',
    });
    expect(
      mapError(
        { status: 504, body: { type: 'error', error: { type: 'timeout_error', message: 'Request timed out' } } },
        { providerId: 'anthropic', now: NOW },
      ).status,
    ).toBe(502);
    expect(map(529, 'error-529')).toEqual({
      status: 503,
      message: 'Upstream provider anthropic is temporarily overloaded (HTTP 529).',
      streamCode: 'server_error',
      upstreamCode: 'overloaded_error',
    });
  });

  it('vendor text is redacted of keys and organization ids', () => {
    const info = mapError(
      {
        status: 400,
        body: {
          type: 'error',
          error: {
            type: 'invalid_request_error',
            message: 'bad key sk-ant-api03-AbCdEf_123 for org 5c3a1e2b-8f4d-4a6b-9c7e-1d2f3a4b5c6d',
          },
        },
      },
      { providerId: 'anthropic', now: NOW },
    );
    expect(info.message).toBe('bad key sk-ant-*** for org ***');
  });

  it('the adapter passes the provider id and its clock through', () => {
    const adapter = createAnthropicAdapter({ now: () => NOW });
    const info = adapter.mapError(
      {
        status: 429,
        body: loadJson('anthropic', 'error-429'),
        headers: { 'retry-after': 'Sun, 01 Jun 2025 12:00:09 GMT' },
      },
      anthropicContext({}, false, { id: 'claude-eu' }),
    );
    expect(info).toMatchObject({
      status: 429,
      retryAfterSeconds: 9,
      message: 'Upstream provider claude-eu rate limit reached; retry later.',
    });
  });
});

describe('mapStreamError: in-stream error events', () => {
  it("maps each documented type to the spec's mid-stream codes", () => {
    expect(mapStreamError(loadJson('anthropic', 'error-529'))).toEqual({
      code: 'server_error',
      message: 'Upstream provider anthropic is temporarily overloaded (HTTP 529). Overloaded',
    });
    expect(mapStreamError(loadJson('anthropic', 'error-429')).code).toBe('rate_limit');
    expect(mapStreamError(loadJson('anthropic', 'error-400-prompt-too-long')).code).toBe('context_length_exceeded');
    expect(mapStreamError(loadJson('anthropic', 'error-500'))).toEqual({
      code: 'server_error',
      message: 'Upstream provider anthropic failed (HTTP 500). Internal server error',
    });
    expect(mapStreamError({ type: 'error', error: { type: 'brand_new_error', message: 'new' } }).code).toBe(
      'server_error',
    );
  });
});
