// A stored turn of the Responses API and the memory that keeps turns. A turn holds only what it added to the
// conversation: its own new input items and the Response object it answered (output items inside), with a link to
// the turn it continued. A request naming `previous_response_id` is expanded by walking the links
// (response-state/load-chain.ts) and splicing the chain's items before the new ones (response-state/expand-request.ts),
// whichever provider serves it next.
//
// How to use it from another edge (the WebSocket mode, for one):
//   const owner = turnOwnerOf(principal);                 // response-state/turn-owner.ts
//   const chain = await loadChain([socketMemory, ...persistent], previousId, owner);  // GatewayError 400 if unknown
//   const body = expandRequest(chain, request);           // input = chain items + new items, no instructions carried
//   ... serve it; when the answer is complete: memory.put(turn) into socketMemory, and into the persistent memory
//   only when `store` is true (see response-state/continue-response.ts, which does all of this for the HTTP door).

/** Who a turn belongs to: the organization it was served in (the unit of isolation), the member and the key. */
export interface TurnOwner {
  organizationId: string;
  memberUserId: string;
  /** The API key's id; null for an account token. */
  keyId: string | null;
  /**
   * The key's allowed models (null: every model). A key may read or continue only turns served by a model it may use,
   * so a narrow key cannot read what a wider key of its organization was answered.
   */
  allowedModels: readonly string[] | null;
}

export interface StoredTurn {
  /** The Response id the client was given (the generation id, `gen-…`). */
  id: string;
  owner: Omit<TurnOwner, 'allowedModels'>;
  /** The gateway model id that served the turn. */
  model: string;
  /** The turn it continued; null for the first turn of a chain. */
  previousResponseId: string | null;
  /** The chain's first turn (its own id when it continued none): the conversation's key for session affinity. */
  rootId: string;
  /** The turn's own new input items, as the client sent them (a string input as one user message item). */
  input: unknown[];
  /** The Response object as answered, with `output` (reasoning items carry their encrypted content). */
  response: Record<string, unknown>;
  createdAt: Date;
  /** Whether the client asked to store it (`store`, default true): a false turn lives only in a socket's memory. */
  store: boolean;
}

/**
 * Where turns are kept: the database (response-state/database-memory.ts, behind a bounded in-process cache:
 * response-state/cached-memory.ts), or one WebSocket's own memory. `get` answers undefined for a turn of another
 * owner, as for an unknown id.
 */
export interface ResponseMemory {
  get(id: string, owner: TurnOwner): Promise<StoredTurn | undefined>;
  put(turn: StoredTurn): Promise<void>;
}

/** The turn's output items (the Response's `output`). */
export function outputOf(turn: StoredTurn): unknown[] {
  return Array.isArray(turn.response.output) ? turn.response.output : [];
}

const turnJsonOf = new WeakMap<StoredTurn, TurnJson>();

export interface TurnJson {
  input: string;
  response: string;
}

/**
 * The turn's input items and Response as JSON, serialized once: the in-process cache sizes it and the database keeps
 * it, and an agent's first turn can carry a whole conversation of several hundred KB.
 */
export function turnJson(turn: StoredTurn): TurnJson {
  let json = turnJsonOf.get(turn);
  if (json === undefined) {
    json = { input: JSON.stringify(turn.input), response: JSON.stringify(turn.response) };
    turnJsonOf.set(turn, json);
  }
  return json;
}
