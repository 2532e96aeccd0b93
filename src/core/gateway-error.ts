// The one typed error the HTTP layer turns into the spec's envelope {error:{code,message,metadata}}.
import type { RateReport } from './rate-report.js';

export type ErrorMetadata = Record<string, unknown>;

export class GatewayError extends Error {
  /** The key's rate-limit state, when the refusal came at or after the rate step: the door renders it as headers. */
  rate?: RateReport;

  constructor(
    readonly status: number,
    message: string,
    readonly metadata: ErrorMetadata = {},
    /** Extra response headers such as Retry-After. */
    readonly headers: Record<string, string> = {},
    /** Error identifier; defaults to the HTTP status as the spec's table says. */
    readonly code: number | string = status,
  ) {
    super(message);
    this.name = 'GatewayError';
  }
}

export function errorBody(code: number | string, message: string, metadata: ErrorMetadata = {}) {
  return { error: { code, message, metadata } };
}
