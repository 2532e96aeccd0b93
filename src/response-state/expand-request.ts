// The one expansion of a Responses request that continues a stored chain: its input becomes the chain's items (each
// turn's own input, then its output) followed by the new items, and `previous_response_id` goes; `instructions` are
// the new request's only (OpenAI does not carry them forward, and turns never store them as items). Pure: the same
// chain and body give byte-identical items turn after turn, which keeps providers' prompt caches warm.
import { outputOf, type StoredTurn } from '../core/stored-turn.js';

/** The fields of a Responses request the expansion reads and writes. */
export interface ContinuableRequest {
  input?: unknown;
  previous_response_id?: string | null;
}

/** A request's input as items: a string input is one user message (what OpenAI stores and lists for it). */
export function inputItemsOf(input: unknown): unknown[] {
  if (typeof input === 'string')
    return [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }];
  return Array.isArray(input) ? input : [];
}

/** The chain's items, oldest first: each turn's input, then its output. */
export function chainItems(chain: readonly StoredTurn[]): unknown[] {
  return chain.flatMap((turn) => [...turn.input, ...outputOf(turn)]);
}

export function expandRequest<B extends ContinuableRequest>(chain: readonly StoredTurn[], body: B): B {
  const { previous_response_id: _continued, ...rest } = body;
  return { ...rest, input: [...chainItems(chain), ...inputItemsOf(body.input)] } as unknown as B;
}
