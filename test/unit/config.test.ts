import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      logLevel: 'info',
      streamDefault: true,
      databaseUrl: undefined,
    });
    expect(config).toMatchObject({
      bodyLimitBytes: 32 * 1024 * 1024,
      headersTimeoutMs: 60_000,
      requestTimeoutMs: 300_000,
    });
    expect(config.dataDir.endsWith('.modelgate')).toBe(true);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['LOG_LEVEL', 'loud'],
    ['MODELGATE_STREAM_DEFAULT', 'maybe'],
    ['MODELGATE_RATE_LIMIT_RPM', '-1'],
    ['MODELGATE_DRAIN_ON_ABORT_S', '1.5'],
    ['MODELGATE_DRAIN_ON_ABORT_S', '3601'],
    ['MODELGATE_UPSTREAM_CONCURRENCY', 'lots'],
    ['MODELGATE_UPSTREAM_QUEUE_TIMEOUT_MS', '0'],
    ['MODELGATE_UPSTREAM_HTTP2', 'h2'],
    ['MODELGATE_HEADERS_TIMEOUT_SECONDS', '0'],
    ['MODELGATE_REQUEST_TIMEOUT_SECONDS', 'forever'],
    ['MODELGATE_RESPONSE_CACHE_MB', '0'],
    ['MODELGATE_RESPONSE_CACHE_MAX_ENTRY_KB', 'big'],
    ['MODELGATE_RESPONSE_CACHE_PRICE_FRACTION', '1.5'],
    ['MODELGATE_RESPONSE_CACHE_PRICE_FRACTION', '-0.1'],
    ['MODELGATE_RESPONSE_CACHE_PRICE_FRACTION', '0.1234567'],
  ])('rejects %s=%s naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  it('drains streams that may reason invisibly for 60 s after their client left, unless told otherwise (0: off)', () => {
    expect(loadConfig({}).drainOnAbortMs).toBe(60_000);
    expect(loadConfig({ MODELGATE_DRAIN_ON_ABORT_S: '5' }).drainOnAbortMs).toBe(5_000);
    expect(loadConfig({ MODELGATE_DRAIN_ON_ABORT_S: '0' }).drainOnAbortMs).toBe(0);
  });

  it('caps upstream requests per origin high by default, with a queue timeout, and offers HTTP/2', () => {
    expect(loadConfig({})).toMatchObject({
      upstreamConcurrency: 4096,
      upstreamQueueTimeoutMs: 10_000,
      upstreamHttp2: true,
    });
    expect(loadConfig({ MODELGATE_UPSTREAM_CONCURRENCY: '0', MODELGATE_UPSTREAM_HTTP2: 'false' })).toMatchObject({
      upstreamConcurrency: 0,
      upstreamHttp2: false,
    });
  });

  it('keeps every generation record unless a retention in days is set (0 also keeps them)', () => {
    expect(loadConfig({}).generationRetentionDays).toBeUndefined();
    expect(loadConfig({ MODELGATE_GENERATION_RETENTION_DAYS: '0' }).generationRetentionDays).toBeUndefined();
    expect(loadConfig({ MODELGATE_GENERATION_RETENTION_DAYS: '90' }).generationRetentionDays).toBe(90);
    for (const bad of ['-1', '1.5', 'forever', '36501']) {
      expect(() => loadConfig({ MODELGATE_GENERATION_RETENTION_DAYS: bad })).toThrow(
        'MODELGATE_GENERATION_RETENTION_DAYS',
      );
    }
  });

  it('refuses a headers timeout longer than the request timeout (Node needs it within)', () => {
    expect(() =>
      loadConfig({ MODELGATE_HEADERS_TIMEOUT_SECONDS: '120', MODELGATE_REQUEST_TIMEOUT_SECONDS: '60' }),
    ).toThrow('MODELGATE_HEADERS_TIMEOUT_SECONDS');
    expect(
      loadConfig({ MODELGATE_HEADERS_TIMEOUT_SECONDS: '60', MODELGATE_REQUEST_TIMEOUT_SECONDS: '60' }).requestTimeoutMs,
    ).toBe(60_000);
  });

  it('reads the stream default switch', () => {
    expect(loadConfig({ MODELGATE_STREAM_DEFAULT: 'false' }).streamDefault).toBe(false);
  });

  it('keeps 64 MB of answers in memory, 1 MB at most each, and gives hits away unless priced', () => {
    expect(loadConfig({}).responseCache).toEqual({
      memoryBytes: 64 * 1024 * 1024,
      maxEntryBytes: 1024 * 1024,
      priceFractionPpm: 0,
    });
    expect(loadConfig({ MODELGATE_RESPONSE_CACHE_PRICE_FRACTION: '0.25' }).responseCache.priceFractionPpm).toBe(
      250_000,
    );
    expect(loadConfig({ MODELGATE_RESPONSE_CACHE_PRICE_FRACTION: '1' }).responseCache.priceFractionPpm).toBe(1_000_000);
    expect(
      loadConfig({ MODELGATE_RESPONSE_CACHE_MB: '8', MODELGATE_RESPONSE_CACHE_MAX_ENTRY_KB: '64' }).responseCache,
    ).toMatchObject({ memoryBytes: 8 * 1024 * 1024, maxEntryBytes: 64 * 1024 });
  });
});
