import { sql } from 'kysely';
import type { DbOrTrx } from '../db/database.js';
import type { SessionRow } from '../db/tables/budgets.js';

// Sessions of an organization (migration 0016), named by the hash of the client's session key. settle_generations
// adds each settled request's cost, tokens and time; admission opens the row and sets or lowers its budget.

/**
 * The session's row, created when new. A budget given sets the session's budget when it has none and lowers it
 * when it is lower; a higher one is ignored (a client can never widen what it was given). Returns what the session
 * holds after the change.
 */
export async function openSession(
  db: DbOrTrx,
  input: { organizationId: string; sessionHash: string; budgetNanos?: bigint },
): Promise<{ budgetNanos: bigint | null; spentNanos: bigint }> {
  const row = await db
    .insertInto('sessions')
    .values({
      organization_id: input.organizationId,
      session_hash: input.sessionHash,
      budget_limit_nanos: input.budgetNanos ?? null,
    })
    .onConflict((oc) =>
      oc.columns(['organization_id', 'session_hash']).doUpdateSet({
        budget_limit_nanos: sql<bigint | null>`case
          when excluded.budget_limit_nanos is null then sessions.budget_limit_nanos
          when sessions.budget_limit_nanos is null then excluded.budget_limit_nanos
          else least(sessions.budget_limit_nanos, excluded.budget_limit_nanos) end`,
      }),
    )
    .returning(['budget_limit_nanos', 'spent_nanos'])
    .executeTakeFirstOrThrow();
  return { budgetNanos: row.budget_limit_nanos, spentNanos: row.spent_nanos };
}

/** One session of the organization, or undefined. */
export function findSession(db: DbOrTrx, organizationId: string, sessionHash: string): Promise<SessionRow | undefined> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('session_hash', '=', sessionHash)
    .executeTakeFirst();
}
