// Smoke check of the Responses door before anything is measured: the load runs count HTTP 200s, and a stream that
// failed inside (response.failed) would still be one. One request must stream every word of the mock's reply as
// response.output_text.delta events and end with response.completed.
import { COMPLETION_TOKENS } from '../mock-replies.js';

export async function checkResponsesStream(url: string, headers: Record<string, string>, body: string): Promise<void> {
  const res = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body, signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST /responses: HTTP ${res.status}: ${text.slice(0, 300)}`);
  const types = text
    .split('\n')
    .filter((line) => line.startsWith('event: '))
    .map((line) => line.slice('event: '.length));
  const deltas = types.filter((type) => type === 'response.output_text.delta').length;
  if (types.at(-1) !== 'response.completed' || deltas !== COMPLETION_TOKENS) {
    throw new Error(`POST /responses: ${deltas}/${COMPLETION_TOKENS} text deltas, last event ${types.at(-1) ?? 'none'}`);
  }
}
