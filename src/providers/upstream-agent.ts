// The undici Agent behind every upstream call. It caps no connections: origin-limiter.ts caps requests per origin,
// with a queue that times out and shows in /metrics (undici's cap queued silently). With `http2`, TLS origins that
// offer HTTP/2 (ALPN) get it, and their streams share connections: undici 7 gates HTTP/2 streams with the HTTP/1.1
// `pipelining` factor (1 by default: one request per connection at a time) and holds a POST back while another
// request runs on the connection unless it is marked idempotent (undici#4143 and #5390, fixed in undici 8, which
// needs Node 22). So each connection's factor is set from what its handshake negotiated: up to
// H2_STREAMS_PER_CONNECTION streams over HTTP/2, one request at a time over HTTP/1.1 (a second request pipelined
// behind a streamed answer would wait for all of it), and requests go out marked idempotent (http-client.ts).
import { Agent, Client, Pool, type Dispatcher, type buildConnector } from 'undici';

/** HTTP/2 streams per connection at most: undici's default SETTINGS_MAX_CONCURRENT_STREAMS and Google's limit. */
export const H2_STREAMS_PER_CONNECTION = 100;

export interface UpstreamAgentOptions {
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  /** Offer HTTP/2 in the TLS handshake (ALPN); plain http:// origins always speak HTTP/1.1. */
  http2: boolean;
  /** Certificates trusted for upstream TLS besides the system's: only tests set it (a local self-signed upstream). */
  ca?: string | Buffer;
}

export function createUpstreamAgent(options: UpstreamAgentOptions): Agent {
  return new Agent({
    connect: { timeout: options.connectTimeoutMs, ...(options.ca !== undefined ? { ca: options.ca } : {}) },
    allowH2: options.http2,
    headersTimeout: options.headersTimeoutMs,
    bodyTimeout: options.bodyTimeoutMs,
    keepAliveTimeout: 30_000,
    // One pool per origin, as undici's default factory makes, with clients that follow their connection's protocol.
    factory: (origin, poolOptions) => new Pool(origin, { ...poolOptions, factory: protocolAwareClient }),
  });
}

/** A client whose pipelining factor follows the protocol each of its connections negotiated. */
function protocolAwareClient(origin: URL, clientOptions: object): Dispatcher {
  // The pool hands its clients the connector it built from the agent's options (TLS, timeout, ALPN).
  const connect = (clientOptions as { connect: buildConnector.connector }).connect;
  const client: Client = new Client(origin, {
    ...clientOptions,
    connect: (connectOptions, callback) =>
      connect(connectOptions, (...result) => {
        if (result[0] === null)
          client.pipelining =
            (result[1] as { alpnProtocol?: string | false }).alpnProtocol === 'h2' ? H2_STREAMS_PER_CONNECTION : 1;
        callback(...result);
      }),
  });
  return client;
}
