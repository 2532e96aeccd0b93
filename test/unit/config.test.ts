import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8080, host: '127.0.0.1', logLevel: 'info', streamDefault: true, databaseUrl: undefined });
    expect(config).toMatchObject({ bodyLimitBytes: 32 * 1024 * 1024, headersTimeoutMs: 60_000, requestTimeoutMs: 300_000 });
    expect(config.dataDir.endsWith('.modelgate')).toBe(true);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['LOG_LEVEL', 'loud'],
    ['MODELGATE_STREAM_DEFAULT', 'maybe'],
    ['MODELGATE_RATE_LIMIT_RPM', '-1'],
    ['MODELGATE_HEADERS_TIMEOUT_SECONDS', '0'],
    ['MODELGATE_REQUEST_TIMEOUT_SECONDS', 'forever'],
  ])('rejects %s=%s naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });

  it('refuses a headers timeout longer than the request timeout (Node needs it within)', () => {
    expect(() => loadConfig({ MODELGATE_HEADERS_TIMEOUT_SECONDS: '120', MODELGATE_REQUEST_TIMEOUT_SECONDS: '60' })).toThrow('MODELGATE_HEADERS_TIMEOUT_SECONDS');
    expect(loadConfig({ MODELGATE_HEADERS_TIMEOUT_SECONDS: '60', MODELGATE_REQUEST_TIMEOUT_SECONDS: '60' }).requestTimeoutMs).toBe(60_000);
  });

  it('reads the stream default switch', () => {
    expect(loadConfig({ MODELGATE_STREAM_DEFAULT: 'false' }).streamDefault).toBe(false);
  });
});
