// What the benchmark's mock upstream answers on Anthropic's Messages API (POST /v1/messages), so that the gateway's
// Messages door to an `anthropic/` model is measured on its native lane (bench/lib/lane-comparison.ts): the same 18
// words as the chat reply, as one Message with Anthropic's usage fields. Only JSON: the lanes comparison sends
// non-streaming requests, and a streaming one gets Anthropic's invalid_request_error rather than a wrong stream.
import { CONTENT_WORDS, COMPLETION_TOKENS } from './mock-replies.js';

export function messageJson(model: string, promptTokens: number): string {
  return JSON.stringify({
    id: 'msg_bench',
    type: 'message',
    role: 'assistant',
    model,
    content: [{ type: 'text', text: CONTENT_WORDS.join('') }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: promptTokens,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      output_tokens: COMPLETION_TOKENS,
    },
  });
}

export const MESSAGES_STREAM_REFUSED = JSON.stringify({
  type: 'error',
  error: { type: 'invalid_request_error', message: 'the bench mock answers Messages requests as JSON only' },
});
