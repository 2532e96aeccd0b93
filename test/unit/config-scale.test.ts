// Configuration of shared limits, metrics and tracing: validated at start, with the variable's name.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { otlpTracesUrl } from '../../src/observability/tracing-sdk.js';

describe('scale-out and observability configuration', () => {
  it('reads Redis, metrics and tracing settings, all off by default', () => {
    expect(loadConfig({})).toMatchObject({
      redisUrl: undefined,
      redisPrefix: 'modelgate:',
      redisTimeoutMs: 250,
      metricsToken: undefined,
      tracing: false,
    });
    const config = loadConfig({
      MODELGATE_REDIS_URL: 'rediss://user:pw@redis.internal:6380/2',
      MODELGATE_REDIS_PREFIX: 'mg-eu:',
      MODELGATE_REDIS_TIMEOUT_MS: '100',
      MODELGATE_METRICS_TOKEN: 'a-long-enough-token',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
    });
    expect(config).toMatchObject({
      redisUrl: 'rediss://user:pw@redis.internal:6380/2',
      redisPrefix: 'mg-eu:',
      redisTimeoutMs: 100,
      metricsToken: 'a-long-enough-token',
      tracing: true,
    });
  });

  it('rejects what would fail later, naming the variable', () => {
    expect(() => loadConfig({ MODELGATE_REDIS_URL: 'localhost:6379' })).toThrow(ConfigError);
    expect(() => loadConfig({ MODELGATE_REDIS_URL: 'localhost:6379' })).toThrow(/MODELGATE_REDIS_URL/);
    expect(() => loadConfig({ MODELGATE_METRICS_TOKEN: 'short' })).toThrow(/MODELGATE_METRICS_TOKEN/);
    expect(() => loadConfig({ MODELGATE_REDIS_TIMEOUT_MS: '0' })).toThrow(/MODELGATE_REDIS_TIMEOUT_MS/);
  });

  it('refuses an OTLP protocol other than http/protobuf and http/json when tracing is on, naming the variable', () => {
    expect(() =>
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
    ).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL.*gRPC is not supported/);
    expect(() =>
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuff',
      }),
    ).toThrow(/OTEL_EXPORTER_OTLP_TRACES_PROTOCOL/);
    // Tracing off: the variable concerns other programs of the same environment.
    expect(loadConfig({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }).tracing).toBe(false);
  });

  it('follows the standard OpenTelemetry variables for tracing', () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' }).tracing).toBe(true);
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }).tracing).toBe(false);
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }).tracing).toBe(
      false,
    );
    expect(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318/' })).toBe('http://c:4318/v1/traces');
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' }).tracesProtocol).toBe('http/protobuf');
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'HTTP/JSON' })
        .tracesProtocol,
    ).toBe('http/json');
    // The traces-specific variable wins over the general one.
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      }).tracesProtocol,
    ).toBe('http/json');
    expect(
      otlpTracesUrl({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t:1/x',
      }),
    ).toBe('http://t:1/x');
  });
});
