// The chain a request continues: from the named turn back to the first, each link read from the first memory that
// has it (a socket's own memory before the database), oldest turn first.
import { GatewayError } from '../core/gateway-error.js';
import type { ResponseMemory, StoredTurn, TurnOwner } from '../core/stored-turn.js';

/** A chain longer than this is refused rather than walked (a runaway client, not a conversation). */
export const MAX_CHAIN_TURNS = 10_000;

/** OpenAI's refusal for an id it does not know (or that belongs to someone else), word for word. */
export function previousResponseNotFound(id: string): GatewayError {
  return new GatewayError(
    400,
    `Previous response with id '${id}' not found.`,
    { type: 'invalid_request_error', param: 'previous_response_id' },
    {},
    'previous_response_not_found',
  );
}

/** Oldest first; a 400 `previous_response_not_found` when the turn, or a turn it continued, is unknown to `owner`. */
export async function loadChain(
  memories: readonly ResponseMemory[],
  id: string,
  owner: TurnOwner,
): Promise<StoredTurn[]> {
  const chain: StoredTurn[] = [];
  let next: string | null = id;
  while (next !== null) {
    if (chain.length >= MAX_CHAIN_TURNS) throw previousResponseNotFound(id);
    const turn = await firstHolding(memories, next, owner);
    // A link deleted or expired under a later turn breaks the chain: its items cannot be sent, so none are.
    if (!turn) throw previousResponseNotFound(id);
    chain.push(turn);
    next = turn.previousResponseId;
  }
  return chain.reverse();
}

async function firstHolding(
  memories: readonly ResponseMemory[],
  id: string,
  owner: TurnOwner,
): Promise<StoredTurn | undefined> {
  for (const memory of memories) {
    const turn = await memory.get(id, owner);
    if (turn) return turn;
  }
  return undefined;
}
