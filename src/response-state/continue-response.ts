// The Responses door's state, for one request: what it continues (the stored chain, expanded into its input) and how
// its answer is kept (in the database when `store` is true, as OpenAI's default; in the edge's own memory — a
// WebSocket's — always). Runs before the door reads the request's facts, so estimation, admission, billing and
// routing all see the expanded input.
import type { AnswerKeeping } from '../core/answer-keeping.js';
import { GatewayError } from '../core/gateway-error.js';
import type { Logger } from '../logger.js';
import { expandRequest, inputItemsOf, type ContinuableRequest } from './expand-request.js';
import { loadChain } from './load-chain.js';
import type { ResponseMemory, StoredTurn, TurnOwner } from '../core/stored-turn.js';

/** The gateway's stored responses: absent when retention is 0 (nothing is stored). */
export interface ResponseState {
  stored?: ResponseMemory;
  logger: Pick<Logger, 'warn'>;
}

export interface ContinueInput<B> {
  body: B;
  owner: TurnOwner;
  /** The edge's own memory, consulted first and given every turn (`store: false` ones too): a WebSocket's. */
  local?: ResponseMemory;
  now?: () => Date;
}

export interface Continuation<B> {
  /** The body to serve: expanded when it continued a chain, else as sent. */
  body: B;
  /** Whether `body` differs from the request as sent (its bytes must be written anew for the native lane). */
  expanded: boolean;
  /** The chain's first turn, the conversation's key for session affinity; absent for a first turn. */
  rootId?: string;
  /** How the answer is kept; absent when it is kept nowhere. */
  keeping?: AnswerKeeping;
}

type Request = ContinuableRequest & { store?: boolean | null };

const KEPT_STATUSES = new Set(['completed', 'incomplete']);

export async function continueResponse<B extends Request>(
  state: ResponseState,
  input: ContinueInput<B>,
): Promise<Continuation<B>> {
  const { body, owner, local } = input;
  const store = body.store !== false;
  if (body.store === true && !state.stored)
    throw new GatewayError(
      400,
      'Invalid request: store is not available: this gateway keeps no responses (its response retention is 0); send store: false, or omit it, and send the whole conversation in input',
      { type: 'invalid_request_error', param: 'store', reason: 'store_disabled' },
    );
  const memories = [local, state.stored].filter((memory): memory is ResponseMemory => memory !== undefined);
  const previous = typeof body.previous_response_id === 'string' ? body.previous_response_id : undefined;
  // Without any memory a continuation is left to the door, which refuses it as state it never keeps.
  if (memories.length === 0) return { body, expanded: false };
  const chain = previous === undefined ? [] : await loadChain(memories, previous, owner);
  const continued = previous === undefined ? body : expandRequest(chain, body);
  const rootId = chain[0]?.id;
  const targets = [local, store ? state.stored : undefined].filter((m): m is ResponseMemory => m !== undefined);
  if (targets.length === 0) return { body: continued, expanded: previous !== undefined, rootId };
  const now = input.now ?? (() => new Date());
  const ownInput = inputItemsOf(body.input);
  let kept = false;
  const keeping: AnswerKeeping = {
    fields: { previous_response_id: previous ?? null, store },
    final(answer) {
      if (kept || !KEPT_STATUSES.has(String(answer.status)) || typeof answer.id !== 'string') return;
      kept = true;
      const turn: StoredTurn = {
        id: answer.id,
        owner: { organizationId: owner.organizationId, memberUserId: owner.memberUserId, keyId: owner.keyId },
        model: String(answer.model),
        previousResponseId: previous ?? null,
        rootId: rootId ?? answer.id,
        input: ownInput,
        response: answer,
        createdAt: now(),
        store,
      };
      // Off the answer's path: a failed write is logged, never fails an answer already delivered.
      for (const memory of targets)
        memory.put(turn).catch((err: unknown) => {
          state.logger.warn({ err, response_id: turn.id }, 'could not store a response');
        });
    },
  };
  return { body: continued, expanded: previous !== undefined, rootId, keeping };
}
