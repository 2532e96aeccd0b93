// Smoke check of the Responses and Messages doors before anything is measured: the load runs count HTTP 200s, and a
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

export const RESPONSES_STREAM: DoorStreamShape = { label: 'POST /responses', deltaEvent: 'response.output_text.delta', lastEvent: 'response.completed' };
export const MESSAGES_STREAM: DoorStreamShape = { label: 'POST /messages', deltaEvent: 'content_block_delta', lastEvent: 'message_stop' };

export async function checkDoorStream(url: string, headers: Record<string, string>, body: string, shape: DoorStreamShape): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(10_000) });
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
