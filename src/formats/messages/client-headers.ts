// The Anthropic protocol headers a Messages client sends, for a native Anthropic upstream (never credentials).
import type { IncomingHttpHeaders } from 'node:http';

const FORWARDED = ['anthropic-version', 'anthropic-beta'] as const;

/** `headers` as Node parsed them: lower-case names, repeated headers joined with ", ". */
export function anthropicClientHeaders(headers: Readonly<IncomingHttpHeaders>): Record<string, string> {
  const forwarded: Record<string, string> = {};
  for (const name of FORWARDED) {
    const value = headers[name];
    if (typeof value === 'string' && value) forwarded[name] = value;
  }
  return forwarded;
}
