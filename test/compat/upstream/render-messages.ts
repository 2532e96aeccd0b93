// Anthropic Messages answers: the SSE sequence with `event:` lines (message_start … message_stop), a signed thinking
// block first when the request enabled thinking, text as text_delta, a tool_use with input_json_delta; or one
// Message object.
import type { Answer } from './script.js';

export const THINKING_SIGNATURE = 'EqQBCompatSignature==';
const THINKING = 'The recorded upstream thinks before it answers.';

export function renderMessages(
  answer: Answer,
  model: string,
  stream: boolean,
  thinking: boolean,
): { type: string; chunks: string[] } {
  const blocks: Array<Record<string, unknown>> = [];
  if (thinking) blocks.push({ type: 'thinking', thinking: THINKING, signature: THINKING_SIGNATURE });
  if (answer.kind === 'text') blocks.push({ type: 'text', text: answer.text });
  if (answer.kind === 'tool')
    blocks.push({ type: 'tool_use', id: 'toolu_compat_1', name: answer.name, input: answer.arguments });
  const stop = answer.kind === 'tool' ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: 120, output_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const message = {
    id: `msg_compat_${Date.now()}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [] as unknown[],
    stop_reason: null,
    stop_sequence: null,
    usage,
  };
  if (!stream)
    return { type: 'application/json', chunks: [JSON.stringify({ ...message, content: blocks, stop_reason: stop })] };
  const event = (type: string, data: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const chunks = [event('message_start', { message: { ...message, usage: { ...usage, output_tokens: 1 } } })];
  blocks.forEach((block, index) => {
    if (block.type === 'thinking') {
      chunks.push(
        event('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }),
      );
      chunks.push(event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: block.thinking } }));
      chunks.push(
        event('content_block_delta', { index, delta: { type: 'signature_delta', signature: block.signature } }),
      );
    } else if (block.type === 'text') {
      chunks.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      chunks.push(event('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } }));
    } else {
      chunks.push(
        event('content_block_start', {
          index,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        }),
      );
      chunks.push(
        event('content_block_delta', {
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input) },
        }),
      );
    }
    chunks.push(event('content_block_stop', { index }));
  });
  chunks.push(
    event('message_delta', {
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    }),
  );
  chunks.push(event('message_stop', {}));
  return { type: 'text/event-stream', chunks };
}
