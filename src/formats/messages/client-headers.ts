// The Anthropic protocol headers a Messages client sends, for a native Anthropic upstream: every `anthropic-*` header
// (anthropic-version, anthropic-beta, anthropic-dangerous-direct-browser-access, ...). Anthropic's credentials travel
// in `x-api-key` and `authorization`, never under that prefix, so none is ever forwarded.
import type { IncomingHttpHeaders } from 'node:http';

const PREFIX = 'anthropic-';

/** `headers` as Node parsed them: lower-case names, repeated headers joined with ", ". */
export function anthropicClientHeaders(headers: Readonly<IncomingHttpHeaders>): Record<string, string> {
  const forwarded: Record<string, string> = {};
  for (const name in headers) {
    const value = headers[name];
    if (name.startsWith(PREFIX) && typeof value === 'string' && value) forwarded[name] = value;
  }
  return forwarded;
}
