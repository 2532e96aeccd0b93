// The undici Agent behind every upstream call. It caps no connections: origin-limiter.ts caps requests per origin,
// with a queue that times out and shows in /metrics (undici's cap of 256 queued silently, without a timeout).
import { Agent } from 'undici';

export interface UpstreamAgentOptions {
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
}

export function createUpstreamAgent(options: UpstreamAgentOptions): Agent {
  return new Agent({
    connect: { timeout: options.connectTimeoutMs },
    headersTimeout: options.headersTimeoutMs,
    bodyTimeout: options.bodyTimeoutMs,
    keepAliveTimeout: 30_000,
  });
}
