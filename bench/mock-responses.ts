// What the benchmark's mock upstream answers on OpenAI's Responses API (POST /v1/responses), so that the gateway's
// Responses door to an `openai/` model is measured on its native lane: the same 18 words as the chat stream, as
// OpenAI's typed events (response.created, the message item, one output_text.delta per word, response.completed with
// usage), or one Response object. Probe requests (PROBE_MARKER in a string `input`) are stamped and paced as chat ones.
import { CONTENT_WORDS, COMPLETION_TOKENS, PROBE_MARKER } from './mock-replies.js';

const RESPONSE_ID = 'resp_bench';
const ITEM_ID = 'msg_bench';
const CREATED = 1760000000;

/** The pace asked for by a Responses request (its string `input`), or undefined. */
export function responsesProbePace(body: unknown): number | undefined {
  const input = (body as { input?: unknown } | null)?.input;
  const match = typeof input === 'string' ? PROBE_MARKER.exec(input) : null;
  return match ? Number(match[1]) : undefined;
}

function response(model: string, status: string, extra: Record<string, unknown> = {}) {
  return {
    id: RESPONSE_ID,
    object: 'response',
    created_at: CREATED,
    status,
    model,
    output: [],
    store: false,
    usage: null,
    ...extra,
  };
}

function usage(promptTokens: number) {
  return {
    input_tokens: promptTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: COMPLETION_TOKENS,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: promptTokens + COMPLETION_TOKENS,
  };
}

function message(text: string) {
  return {
    id: ITEM_ID,
    type: 'message',
    status: 'completed',
    role: 'assistant',
    content: [{ type: 'output_text', annotations: [], text }],
  };
}

function event(type: string, sequence: number, payload: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence, ...payload })}\n\n`;
}

export function responseJson(model: string, promptTokens: number): string {
  return JSON.stringify(
    response(model, 'completed', { output: [message(CONTENT_WORDS.join(''))], usage: usage(promptTokens) }),
  );
}

/** The events before the first word. */
export function responsesHead(model: string): string[] {
  return [
    event('response.created', 0, { response: response(model, 'in_progress') }),
    event('response.output_item.added', 1, {
      output_index: 0,
      item: { id: ITEM_ID, type: 'message', status: 'in_progress', role: 'assistant', content: [] },
    }),
  ];
}

/** One word's event; `index` counts the words from 0. */
export function responsesDelta(index: number, text: string): string {
  return event('response.output_text.delta', 2 + index, {
    item_id: ITEM_ID,
    output_index: 0,
    content_index: 0,
    delta: text,
  });
}

/** The events after the last word: the item done and response.completed with the usage. */
export function responsesTail(model: string, promptTokens: number, text: string): string[] {
  const sequence = 2 + CONTENT_WORDS.length;
  return [
    event('response.output_item.done', sequence, { output_index: 0, item: message(text) }),
    event('response.completed', sequence + 1, {
      response: response(model, 'completed', { output: [message(text)], usage: usage(promptTokens) }),
    }),
  ];
}
