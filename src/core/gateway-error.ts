// The one typed error the HTTP layer turns into the spec's envelope {error:{code,message,metadata}}.
export type ErrorMetadata = Record<string, unknown>;

export class GatewayError extends Error {
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
