// The Anthropic protocol headers a Messages client sends, for a native Anthropic upstream (never credentials).
import type { Context } from 'koa';

const FORWARDED = ['anthropic-version', 'anthropic-beta'] as const;

export function anthropicClientHeaders(ctx: Pick<Context, 'get'>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of FORWARDED) {
    const value = ctx.get(name);
    if (value) headers[name] = value;
  }
  return headers;
}
