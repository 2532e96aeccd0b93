// The translated lane carries the block types the Messages door models; the door's schema accepts any other type too
// (server tool blocks, search results, types Anthropic adds later), which only an Anthropic model can take, as it is,
// on the native lane. Before a request is translated for another provider, such a block is refused by name: a clear
// 400 rather than a block silently dropped.
import { GatewayError } from '../../core/gateway-error.js';
import type { MessagesRequest } from './wire-types.js';

const TURN_BLOCKS = new Set(['text', 'image', 'tool_use', 'tool_result', 'thinking', 'redacted_thinking', 'document']);
const TOOL_RESULT_BLOCKS = new Set(['text', 'image', 'document']);

function refuse(field: string, type: string, model: string): GatewayError {
  return new GatewayError(400, `Invalid request: ${field} has type "${type}", which only Anthropic models take (passed to them as it is); ${model} is served by another provider`, {
    field: `${field}.type`,
    reason: 'block_type_not_supported',
    block_type: type,
  });
}

/** Throws a 400 naming the first block the translated lane cannot carry; returns the request otherwise. */
export function translatableMessages(body: MessagesRequest, model: string): MessagesRequest {
  body.messages.forEach((message, i) => {
    if (typeof message.content === 'string') return;
    message.content.forEach((block, j) => {
      const field = `messages[${i}].content[${j}]`;
      const type = String((block as { type?: unknown }).type);
      if (!TURN_BLOCKS.has(type)) throw refuse(field, type, model);
      if (block.type !== 'tool_result' || typeof block.content === 'string' || block.content === undefined) return;
      block.content.forEach((inner, k) => {
        const innerType = String((inner as { type?: unknown }).type);
        if (!TOOL_RESULT_BLOCKS.has(innerType)) throw refuse(`${field}.content[${k}]`, innerType, model);
      });
    });
  });
  return body;
}
