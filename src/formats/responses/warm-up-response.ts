// The answer to a WebSocket mode warm-up (`response.create` with `generate: false`): the response is created and
// completed at once with no output and no usage, as OpenAI answers one, so a client that chains its next turn to it
// (`previous_response_id`) finds an id. No model is called and nothing is billed.
import type { GenerationIdentity } from '../../core/stream-renderer.js';
import { echoOf, IN_PROGRESS, responseObject } from './response-object.js';
import type { ResponseRequest } from './wire-types.js';

const COMPLETED = { status: 'completed', error: null, incomplete_details: null } as const;

/**
 * The events' JSON, in order (response.created, then response.completed), and the completed Response, which is kept
 * as any answer is. `kept`: the fields a kept answer shows (its `previous_response_id` and `store`).
 */
export function warmUpEvents(
  body: ResponseRequest,
  identity: GenerationIdentity,
  kept?: Readonly<Record<string, unknown>>,
): { events: string[]; response: Record<string, unknown> } {
  const echo = echoOf(body, kept);
  const created = responseObject(identity, echo, IN_PROGRESS, []);
  const completed = responseObject(identity, echo, COMPLETED, []);
  return {
    events: [
      JSON.stringify({ type: 'response.created', sequence_number: 0, response: created }),
      JSON.stringify({ type: 'response.completed', sequence_number: 1, response: completed }),
    ],
    response: completed as unknown as Record<string, unknown>,
  };
}
