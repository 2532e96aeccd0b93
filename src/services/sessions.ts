// A session's spend as GET /sessions/{id} and `modelgate statusline` show it: found by the hash of the caller's
// organization and the id the client sends, so a credential sees only its own organization's sessions.
import { sessionHash } from '../billing/session-book.js';
import { GatewayError } from '../core/gateway-error.js';
import { nanosToUsd } from '../core/money.js';
import type { DbOrTrx } from '../db/database.js';
import { findSession } from '../repositories/sessions.js';

export interface SessionView {
  id: string;
  spend_usd: number;
  requests: number;
  tokens: { prompt: number; completion: number; cached: number; reasoning: number };
  first_request_at: string | null;
  last_request_at: string | null;
  budget: { limit_usd: number; remaining_usd: number } | null;
}

/** The organization's session named `id`, or 404. */
export async function sessionOf(db: DbOrTrx, organizationId: string, id: string): Promise<SessionView> {
  const row = await findSession(db, organizationId, sessionHash(organizationId, id));
  if (!row) throw new GatewayError(404, `Session ${id} not found`, { id });
  const left = row.budget_limit_nanos === null ? 0n : row.budget_limit_nanos - row.spent_nanos;
  return {
    id,
    spend_usd: nanosToUsd(row.spent_nanos),
    requests: Number(row.requests),
    tokens: {
      prompt: Number(row.prompt_tokens),
      completion: Number(row.completion_tokens),
      cached: Number(row.cached_tokens),
      reasoning: Number(row.reasoning_tokens),
    },
    first_request_at: row.first_request_at?.toISOString() ?? null,
    last_request_at: row.last_request_at?.toISOString() ?? null,
    budget:
      row.budget_limit_nanos === null
        ? null
        : { limit_usd: nanosToUsd(row.budget_limit_nanos), remaining_usd: nanosToUsd(left > 0n ? left : 0n) },
  };
}
