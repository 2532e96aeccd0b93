// How long the HTTP server waits for a client. Node's `requestTimeout` bounds receiving the request only: it stops
// counting once the request's last byte arrived, so an answer streamed for many minutes is not cut by it (Node's
// connections check drops a connection from its list when the request completes). A client that sends its headers or
// its body too slowly (slowloris) is answered 408 (client-error-envelope.ts) instead of holding a connection forever.
import type { ServerOptions } from 'node:http';
import type { Config } from '../config.js';

/** Load balancers (AWS ALB: 60 s) must give up on an idle connection first, or they meet a closed one. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** How often Node looks for expired requests; a quarter of the headers' deadline, so a 408 is at most that late. */
const MAX_CHECK_INTERVAL_MS = 30_000;

export function clientTimeouts(config: Pick<Config, 'headersTimeoutMs' | 'requestTimeoutMs'>): ServerOptions {
  return {
    headersTimeout: config.headersTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval: Math.min(
      MAX_CHECK_INTERVAL_MS,
      Math.max(100, Math.floor(config.headersTimeoutMs / 4)),
    ),
  };
}
