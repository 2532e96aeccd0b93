// Thrown when a vendor's 2xx body cannot be used: malformed JSON shape, or an error object in place of a
// completion. The pipeline maps `info` like any upstream error (a malformed body is a 502).
import type { UpstreamErrorInfo } from './adapter.js';

export class UpstreamPayloadError extends Error {
  override readonly name = 'UpstreamPayloadError';

  constructor(readonly info: UpstreamErrorInfo) {
    super(info.message);
  }

  /** A 2xx body as JSON (strings are parsed; anything else is passed through), or a malformed-payload error. */
  static parseJson(body: unknown): unknown {
    if (typeof body !== 'string') return body;
    try {
      return JSON.parse(body);
    } catch {
      throw UpstreamPayloadError.malformed('body is not JSON');
    }
  }

  static malformed(detail: string): UpstreamPayloadError {
    return new UpstreamPayloadError({
      status: 502,
      message: `Upstream provider returned a malformed response: ${detail}`,
      streamCode: 'server_error',
    });
  }
}
