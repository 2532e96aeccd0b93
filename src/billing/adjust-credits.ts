// Adding or removing a user's credits: the one implementation behind `modelgate credits add` and the operator API.
// A removal may not take credit that requests hold, but it must not fail because running gateways lease the credit
// for requests to come: it recalls those leases (src/billing/lease-recalls.ts) and tries again until it fits,
// for a few seconds at most, also while the user keeps sending requests (each recall also keeps the holders from
// leasing more than each request needs for a while).
import type { Db, DbOrTrx } from '../db/database.js';
import { createLogger, type Logger } from '../logger.js';
import { grantCredits, InsufficientCreditsError } from '../repositories/credits.js';
import { reclaimExpiredLeases, recallableCredit } from '../repositories/credit-leases.js';
import { DEFAULT_LEASE_OPTIONS } from './credit-lease.js';
import { LeaseRecalls } from './lease-recalls.js';

export interface AdjustCreditsDeps {
  db: Db;
  /** Only a recall channel that serves a holder logs (default: silent). */
  logger?: Logger;
  /** A gateway's recall channel (it hears the answers); without it recalls are sent and the account polled. */
  recalls?: LeaseRecalls;
  /** How long a removal keeps recalling leases before it gives up (default 5 s). */
  timeoutMs?: number;
  clock?: () => number;
}

export interface AdjustCreditsInput {
  userId: string;
  /** Positive: a grant. Negative: a removal (ledger kind `adjustment`). Never zero. */
  amountNanos: bigint;
  note?: string | null;
  /** Runs in the adjustment's transaction once it is written (the audit log's entry). */
  written?: (trx: DbOrTrx, result: { balanceNanos: bigint; ledgerId: bigint }) => Promise<void>;
}

/**
 * Adds credits, or removes them once no lease holds them back. Throws `InsufficientCreditsError` (nothing changed)
 * when the balance minus what requests in flight hold is smaller than the removal.
 */
export async function adjustCredits(
  deps: AdjustCreditsDeps,
  input: AdjustCreditsInput,
): Promise<{ balanceNanos: bigint; ledgerId: bigint }> {
  const { db } = deps;
  if (input.amountNanos >= 0n) return grantCredits(db, input);
  const removal = -input.amountNanos;
  const clock = deps.clock ?? Date.now;
  const deadline = clock() + (deps.timeoutMs ?? 5_000);
  const recalls = deps.recalls ?? new LeaseRecalls(db, deps.logger ?? createLogger('silent'));
  for (let round = 0; ; round++) {
    try {
      return await grantCredits(db, input);
    } catch (err) {
      if (!(err instanceof InsufficientCreditsError)) throw err;
      // Leases of gateways that stopped renewing them are no one's: the periodic reclamation may not run (no gateway
      // up).
      if (round === 0 && (await reclaimExpiredLeases(db, DEFAULT_LEASE_OPTIONS.ttlSeconds)) > 0) continue;
      const { availableNanos, leases } = await recallableCredit(db, input.userId);
      const leased = leases.reduce((sum, lease) => sum + lease.amountNanos, 0n);
      if (availableNanos + leased < removal || clock() >= deadline) throw err;
      await recalls.recall(
        input.userId,
        leases.map((lease) => lease.holder),
      );
      // What is left is held by requests in flight: give them a moment to settle instead of spinning.
      if (round > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(10 * round, 100)));
    }
  }
}
