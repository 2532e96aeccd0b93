// Stored responses, as the API and the operator see them: one turn read, listed (its input items) or deleted by its
// owner, every turn of an organization or member purged, and the expired ones deleted by the hourly purge. The door's
// memory (the same cache over the database) is `memory`; what is deleted here is forgotten by it at once.
import type { Db } from '../db/database.js';
import {
  deleteExpiredStoredResponses,
  deleteStoredResponse,
  deleteStoredResponsesOf,
  deleteStoredResponsesOfUser,
} from '../repositories/stored-responses.js';
import { CachedMemory, DEFAULT_CACHE_BOUNDS } from '../response-state/cached-memory.js';
import { DatabaseMemory } from '../response-state/database-memory.js';
import { loadChain } from '../response-state/load-chain.js';
import type { StoredTurn, TurnOwner } from '../core/stored-turn.js';

const DAY_MS = 86_400_000;
/** Small enough that one batch (one short transaction) never holds up the rest for long. */
export const PURGE_BATCH_SIZE = 5_000;

export class StoredResponses {
  readonly memory: CachedMemory;

  constructor(
    private readonly db: Db,
    retentionDays: number,
    now: () => Date = () => new Date(),
  ) {
    this.memory = new CachedMemory(
      new DatabaseMemory(db, retentionDays, now),
      { ...DEFAULT_CACHE_BOUNDS, maxAgeMs: retentionDays * DAY_MS },
      now,
    );
  }

  /** The turn, when `owner` may see it. */
  find(owner: TurnOwner, id: string): Promise<StoredTurn | undefined> {
    return this.memory.get(id, owner);
  }

  /**
   * Every input item the turn was generated from, oldest first: the chain's items, then its own input. Undefined when
   * the turn is unknown to `owner`; a broken chain (a link deleted) lists the turn's own input only.
   */
  async inputItems(owner: TurnOwner, id: string): Promise<unknown[] | undefined> {
    const turn = await this.memory.get(id, owner);
    if (!turn) return undefined;
    const chain =
      turn.previousResponseId === null
        ? []
        : await loadChain([this.memory], turn.previousResponseId, owner).catch(() => []);
    return [...chain.flatMap((t) => listedItems(t.id, t.input).concat(outputItems(t))), ...listedItems(id, turn.input)];
  }

  /** Deletes one turn `owner` may see; whether it did. */
  async delete(owner: TurnOwner, id: string): Promise<boolean> {
    if (!(await this.memory.get(id, owner))) return false;
    this.memory.forget([id]);
    return deleteStoredResponse(this.db, { id, organizationId: owner.organizationId });
  }

  /** Every turn of an organization, or of one member of it; how many were deleted. */
  async purge(input: { organizationId: string; memberUserId?: string }): Promise<number> {
    this.memory.forgetOwner(input.organizationId, input.memberUserId);
    return deleteStoredResponsesOf(this.db, input);
  }
}

/** Every turn of an organization, a member of it, or a user in every organization (the operator's purge). */
export function purgeStoredResponses(
  db: Db,
  input: { organizationId: string; memberUserId?: string } | { userId: string },
): Promise<number> {
  return 'userId' in input ? deleteStoredResponsesOfUser(db, input.userId) : deleteStoredResponsesOf(db, input);
}

/** Deletes the expired turns in batches; how many. */
export async function purgeExpiredResponses(db: Db, now: Date, signal?: AbortSignal): Promise<number> {
  let deleted = 0;
  for (;;) {
    const batch = await deleteExpiredStoredResponses(db, now, PURGE_BATCH_SIZE);
    deleted += batch;
    if (batch < PURGE_BATCH_SIZE || signal?.aborted) return deleted;
  }
}

/** A listed input item has an id: its own, else one made of its turn and place (stable, for paging). */
function listedItems(turnId: string, items: readonly unknown[]): unknown[] {
  return items.map((item, index) => {
    const record = item as Record<string, unknown>;
    const withType = { type: 'message', ...record };
    return typeof record.id === 'string' ? withType : { id: `msg_${turnId}_in${index}`, ...withType };
  });
}

function outputItems(turn: StoredTurn): unknown[] {
  return Array.isArray(turn.response.output) ? turn.response.output : [];
}
