// The session key a conversation's requests share, for session affinity (session-affinity.ts). Each front door
// reads its own body field first (formats/<door>/session-key.ts); these headers come next, in this order: `X-Task-ID`
// (agent frameworks name a task with it) and Codex's `session-id` (Codex 0.169 sends its thread id hyphenated).
import type { IncomingHttpHeaders } from 'node:http';

const SESSION_HEADERS = ['x-task-id', 'session-id'] as const;

/** A usable key: a non-empty string (surrounding blanks ignored); anything else is no key. */
export function sessionValue(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** The first session header present. */
export function sessionKeyFromHeaders(headers: IncomingHttpHeaders): string | undefined {
  for (const name of SESSION_HEADERS) {
    const value = headers[name];
    const key = sessionValue(Array.isArray(value) ? value[0] : value);
    if (key !== undefined) return key;
  }
  return undefined;
}
