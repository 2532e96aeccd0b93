// Sends a RequestSpec and keeps everything about the answer that a check or a report needs. Transport failures
// (connection reset, timeout) are answers too: a server that drops the connection on some input is a finding.
import { Agent, request } from 'undici';
import type { RequestSpec } from './request-spec.js';

export interface Exchange {
  request: RequestSpec;
  url: string;
  /** Absent when no response arrived (see `error`). */
  status?: number;
  /** Response headers, lower-case names, repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: string;
  elapsedMs: number;
  /** Why no (complete) response arrived. */
  error?: string;
}

export interface Sender {
  send(spec: RequestSpec): Promise<Exchange>;
  readonly baseUrl: string;
  close(): Promise<void>;
}

export function urlOf(baseUrl: string, spec: RequestSpec): string {
  const query = spec.query.length > 0 ? `?${new URLSearchParams(spec.query).toString()}` : '';
  return `${baseUrl}${spec.path}${query}`;
}

/** `baseUrl` is the API root (`http://host:port/api/v1`), without a trailing slash. */
export function createSender(baseUrl: string, options: { timeoutMs: number }): Sender {
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 8 });
  return {
    baseUrl,
    async send(spec) {
      const url = urlOf(baseUrl, spec);
      const headers: Record<string, string> = { ...spec.headers };
      if (spec.authorization) headers.authorization = spec.authorization.header;
      const started = performance.now();
      try {
        const res = await request(url, {
          method: spec.method as 'GET',
          headers,
          body: spec.body,
          dispatcher: agent,
          headersTimeout: options.timeoutMs,
          bodyTimeout: options.timeoutMs,
          signal: AbortSignal.timeout(options.timeoutMs),
        });
        const body = await res.body.text();
        return {
          request: spec,
          url,
          status: res.statusCode,
          headers: flatten(res.headers),
          body,
          elapsedMs: performance.now() - started,
        };
      } catch (err) {
        const error = err as Error & { code?: string };
        return {
          request: spec,
          url,
          headers: {},
          body: '',
          elapsedMs: performance.now() - started,
          error: `${error.code ?? error.name}: ${error.message}`,
        };
      }
    },
    close: () => agent.close(),
  };
}

function flatten(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
