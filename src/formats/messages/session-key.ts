// The Messages door's session key for affinity: `metadata.user_id`, else the session headers. Claude Code sends
// user_id as a JSON string ({"device_id", "account_uuid", "session_id"}): its session_id is the conversation, the
// device and account are the same for every conversation. Any other user_id (an end-user id) is taken whole.
import type { IncomingHttpHeaders } from 'node:http';
import { sessionKeyFromHeaders, sessionValue } from '../../routing/session-key.js';

export function messagesSessionKey(
  body: { metadata?: { user_id?: unknown } | null },
  headers: IncomingHttpHeaders,
): string | undefined {
  const userId = sessionValue(body.metadata?.user_id);
  return (userId === undefined ? undefined : sessionOfUserId(userId)) ?? sessionKeyFromHeaders(headers);
}

function sessionOfUserId(userId: string): string {
  if (!userId.startsWith('{')) return userId;
  try {
    const parsed = JSON.parse(userId) as { session_id?: unknown } | null;
    return sessionValue(parsed?.session_id) ?? userId;
  } catch {
    return userId;
  }
}
