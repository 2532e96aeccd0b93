// Messages `system` + turns → the internal instructions and conversation, block for block and in order:
// - a user turn's text, image, document and tool_result blocks (tool results keep their images, documents,
//   `is_error` and `cache_control`);
// - an assistant turn's thinking and redacted_thinking blocks → reasoning records (reasoning-signatures.ts), text,
//   and tool_use → tool calls (input as JSON text, cache_control kept);
// - system turns inside `messages` (Claude Code sends them) stay system turns where they were given.
// A block in the wrong turn, or of a type the translated lane does not carry, is a 400.
import type { AssistantBlock, TextBlock, ToolResultBlock, UserBlock } from '../../core/content-blocks.js';
import type { Instruction, Turn } from '../../core/generation-request.js';
import { cacheOf, documentBlock, imageBlock, invalidRequest, textBlock } from './parse-blocks.js';
import { recordsOfRedacted, recordsOfThinking } from './reasoning-signatures.js';
import type { MessagesInputMessage, MessagesRequest, MessagesToolResultBlock } from './wire-types.js';

type Block = Exclude<MessagesInputMessage['content'], string>[number];

export function parseSystem(system: MessagesRequest['system']): Instruction[] {
  if (system === undefined || system === null) return [];
  if (typeof system === 'string') return system === '' ? [] : [{ content: [{ type: 'text', text: system }] }];
  return system.length === 0 ? [] : [{ content: system.map(textBlock) }];
}

function toolResult(block: MessagesToolResultBlock, field: string): ToolResultBlock {
  const content = block.content;
  const out: ToolResultBlock = {
    type: 'tool_result',
    callId: block.tool_use_id,
    content:
      content === undefined
        ? []
        : typeof content === 'string'
          ? [{ type: 'text', text: content }]
          : content.map((inner, i) => {
              const at = `${field}.content[${i}]`;
              switch (inner.type) {
                case 'text':
                  return textBlock(inner);
                case 'image':
                  return imageBlock(inner, at);
                case 'document':
                  return documentBlock(inner, at);
                default:
                  throw unsupported(inner, at);
              }
            }),
  };
  if (block.is_error === true) out.isError = true;
  const cache = cacheOf(block);
  if (cache) out.cache = cache;
  return out;
}

function unsupported(block: { type?: unknown }, at: string) {
  return invalidRequest(`${at}: "${String(block.type)}" blocks are not supported for this model`, `${at}.type`);
}

function userBlock(block: Block, at: string): UserBlock {
  switch (block.type) {
    case 'text':
      return textBlock(block);
    case 'image':
      return imageBlock(block, at);
    case 'document':
      return documentBlock(block, at);
    case 'tool_result':
      return toolResult(block, at);
    case 'thinking':
    case 'redacted_thinking':
    case 'tool_use':
      throw invalidRequest(`${at}: a "${block.type}" block is only allowed in an assistant turn`, `${at}.type`);
    default:
      throw unsupported(block, at);
  }
}

function assistantBlocks(content: Block[], field: string): AssistantBlock[] {
  const blocks: AssistantBlock[] = [];
  let records = 0;
  content.forEach((block, i) => {
    const at = `${field}.content[${i}]`;
    switch (block.type) {
      case 'text':
        blocks.push(textBlock(block));
        break;
      case 'thinking': {
        const found = recordsOfThinking(block.thinking, block.signature, records);
        records += found.length;
        blocks.push(...found);
        break;
      }
      case 'redacted_thinking': {
        const found = recordsOfRedacted(block.data, records);
        records += found.length;
        blocks.push(...found);
        break;
      }
      case 'tool_use': {
        const call: AssistantBlock = {
          type: 'tool_call',
          id: block.id,
          name: block.name,
          kind: 'function',
          input: JSON.stringify(block.input ?? {}),
        };
        const cache = cacheOf(block);
        if (cache) call.cache = cache;
        blocks.push(call);
        break;
      }
      case 'image':
      case 'document':
      case 'tool_result':
        throw invalidRequest(`${at}: a "${block.type}" block is only allowed in a user turn`, `${at}.type`);
      default:
        throw unsupported(block, at);
    }
  });
  return blocks;
}

function systemTurn(content: MessagesInputMessage['content'], field: string): Turn {
  if (typeof content === 'string') return { role: 'system', content: [{ type: 'text', text: content }] };
  const texts: TextBlock[] = content.map((block, i) => {
    if (block.type !== 'text')
      throw invalidRequest(
        `${field}.content[${i}]: a system turn holds text blocks only`,
        `${field}.content[${i}].type`,
      );
    return textBlock(block);
  });
  return { role: 'system', content: texts };
}

export function parseTurns(messages: readonly MessagesInputMessage[]): Turn[] {
  return messages.map((message, i): Turn => {
    const field = `messages[${i}]`;
    const { content } = message;
    if (message.role === 'system') return systemTurn(content, field);
    if (typeof content === 'string')
      return { role: message.role === 'assistant' ? 'assistant' : 'user', content: [{ type: 'text', text: content }] };
    if (message.role === 'assistant') return { role: 'assistant', content: assistantBlocks(content, field) };
    return { role: 'user', content: content.map((block, j) => userBlock(block, `${field}.content[${j}]`)) };
  });
}
