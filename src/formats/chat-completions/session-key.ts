// The chat door's session key for affinity: `prompt_cache_key` (OpenAI's name for the key a conversation's requests
// share), else the session headers.
import type { IncomingHttpHeaders } from 'node:http';
import { sessionKeyFromHeaders, sessionValue } from '../../routing/session-key.js';

export function chatSessionKey(body: object, headers: IncomingHttpHeaders): string | undefined {
  // Not a modelled field: it reaches the gateway as one of the extra top-level fields it accepts.
  return sessionValue((body as { prompt_cache_key?: unknown }).prompt_cache_key) ?? sessionKeyFromHeaders(headers);
}
