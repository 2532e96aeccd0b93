// Which configuration values count as credentials, and how they are cut out of upstream error texts.
import { describe, expect, it } from 'vitest';
import { credentialValues, MIN_SECRET_LENGTH } from '../../src/providers/credential-values.js';
import { credentialRedactor, redactingAdapter } from '../../src/providers/redact-credentials.js';
import { UpstreamPayloadError } from '../../src/providers/upstream-payload-error.js';
import type { ProviderAdapter } from '../../src/providers/adapter.js';

describe('credentialValues', () => {
  it('takes provider keys, every *_API_KEY / *_TOKEN / *_SECRET / *_PASSWORD value and the logins of *_URL values', () => {
    const values = credentialValues(
      {
        GEMINI_API_KEY: 'gemini-alias-value', // an alias that lost to GOOGLE_API_KEY still counts
        MODELGATE_METRICS_TOKEN: 'metrics-token-value',
        SOME_SECRET: 'some-secret-value',
        DATABASE_URL: 'postgres://gateway:p%40ss-word-1@db:5432/x',
        MODELGATE_REDIS_URL: 'redis://:redis-password@cache:6379',
        OPENAI_BASE_URL: 'https://proxy.example/v1',
        PORT: '8080',
        LOG_LEVEL: 'debug-level-not-secret',
        SHORT_API_KEY: 'k',
      },
      ['provider-key-value', undefined],
    );
    expect(new Set(values)).toEqual(
      new Set([
        'provider-key-value',
        'gemini-alias-value',
        'metrics-token-value',
        'some-secret-value',
        'p%40ss-word-1',
        'p@ss-word-1',
        'redis-password',
      ]),
    );
    expect(values.every((value) => value.length >= MIN_SECRET_LENGTH)).toBe(true);
  });
});

describe('credentialRedactor', () => {
  it('cuts every occurrence, the longer of two overlapping values first', () => {
    const redact = credentialRedactor(['abcdefgh', 'abcdefgh-longer']);
    expect(redact('key abcdefgh-longer and abcdefgh and abcdefgh')).toBe(
      'key [redacted] and [redacted] and [redacted]',
    );
    expect(credentialRedactor([])('as is')).toBe('as is');
  });

  it('covers what an adapter returns: mapped errors, payload errors, stream error events', () => {
    const secret = 'Zq8Wv7Ut6Sr5';
    const info = {
      status: 400,
      message: `bad key ${secret}`,
      streamCode: 'server_error' as const,
      upstreamCode: secret,
    };
    const inner: ProviderAdapter = {
      buildRequest: () => ({ method: 'POST', url: 'http://x', headers: {}, body: '' }),
      parseCompletion: () => {
        throw new UpstreamPayloadError(info);
      },
      createStreamTranslator: () => ({
        push: () => [
          { type: 'text-delta', text: secret },
          { type: 'error', code: 'server_error', message: `echo ${secret}` },
        ],
        end: () => [],
      }),
      mapError: () => info,
    };
    const adapter = redactingAdapter(inner, credentialRedactor([secret]));
    const ctx = {} as never;
    expect(adapter.mapError({ status: 400, body: {} }, ctx)).toMatchObject({
      message: 'bad key [redacted]',
      upstreamCode: '[redacted]',
    });
    expect(() => adapter.parseCompletion({}, ctx)).toThrow(
      expect.objectContaining({ info: expect.objectContaining({ message: 'bad key [redacted]' }) }),
    );
    // Generated content is the model's, not an error text: left alone.
    expect(adapter.createStreamTranslator(ctx).push({ data: '' })).toEqual([
      { type: 'text-delta', text: secret },
      { type: 'error', code: 'server_error', message: 'echo [redacted]' },
    ]);
    expect('acceptsFileParts' in adapter).toBe(false);
  });

  it("keeps the adapter's optional members (the drain on abort asks hidesReasoning)", () => {
    const inner: ProviderAdapter = {
      buildRequest: () => ({ method: 'POST', url: 'http://x', headers: {}, body: '' }),
      parseCompletion: () => ({ output: [], finishReason: 'stop' }),
      createStreamTranslator: () => ({ push: () => [], end: () => [] }),
      mapError: () => ({ status: 502, message: '', streamCode: 'server_error' }),
      acceptsFileParts: () => false,
      hidesReasoning: () => true,
    };
    const adapter = redactingAdapter(inner, credentialRedactor(['k9Zq-secret-value']));
    expect(adapter.hidesReasoning?.({} as never, {} as never)).toBe(true);
    expect(adapter.acceptsFileParts?.({} as never)).toBe(false);
  });
});
