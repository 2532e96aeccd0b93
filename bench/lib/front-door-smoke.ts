// Smoke checks of the Responses and Messages doors (and of the routed request) before anything is measured: the load runs count HTTP 200s, and a
// stream that failed inside (response.failed, event: error) would still be one. One request must stream every word
// of the mock's reply as the door's text-delta events and end with the door's closing event.
import { COMPLETION_TOKENS } from '../mock-replies.js';

export interface DoorStreamShape {
  /** What the report and errors call it, e.g. `POST /responses`. */
  label: string;
  /** The event that carries one text delta. */
  deltaEvent: string;
  /** The event that ends a successful stream. */
  lastEvent: string;
}

export const RESPONSES_STREAM: DoorStreamShape = {
  label: 'POST /responses',
  deltaEvent: 'response.output_text.delta',
  lastEvent: 'response.completed',
};
export const MESSAGES_STREAM: DoorStreamShape = {
  label: 'POST /messages',
  deltaEvent: 'content_block_delta',
  lastEvent: 'message_stop',
};

export async function checkDoorStream(
  url: string,
  headers: Record<string, string>,
  body: string,
  shape: DoorStreamShape,
): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${shape.label}: HTTP ${res.status}: ${text.slice(0, 300)}`);
  const types = text
    .split('\n')
    .filter((line) => line.startsWith('event: '))
    .map((line) => line.slice('event: '.length));
  const deltas = types.filter((type) => type === shape.deltaEvent).length;
  if (types.at(-1) !== shape.lastEvent || deltas !== COMPLETION_TOKENS) {
    throw new Error(`${shape.label}: ${deltas}/${COMPLETION_TOKENS} text deltas, last event ${types.at(-1) ?? 'none'}`);
  }
}

/**
 * Smoke check of the routed request (requests.ts routedChatBody) before it is measured: a chat completion served by
 * `provider`, the first of `provider.order`. A gateway that ignored the order would still answer 200 (from the
 * cheapest endpoint), and the figure would not be the routing step's.
 */
export async function checkRoutedCompletion(
  url: string,
  headers: Record<string, string>,
  body: string,
  provider: string,
): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`routed request: HTTP ${res.status}: ${text.slice(0, 300)}`);
  const parsed = JSON.parse(text) as { provider?: unknown; choices?: { message?: { content?: unknown } }[] };
  if (typeof parsed.choices?.[0]?.message?.content !== 'string')
    throw new Error(`routed request: not a chat completion: ${text.slice(0, 300)}`);
  if (parsed.provider !== provider)
    throw new Error(
      `routed request: served by ${String(parsed.provider)}, expected ${provider} (the first of provider.order)`,
    );
}
