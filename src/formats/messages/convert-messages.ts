// Messages `system` + turns → internal (chat) messages.
// - a user turn's tool_result blocks become `tool` messages (first, as they answer the previous assistant turn),
//   its text and images one `user` message after them; images inside a tool result follow in that user message,
//   since chat tool messages carry text only, and so do documents (convert-documents.ts);
// - an assistant turn's thinking / redacted_thinking blocks become reasoning_details (see reasoning-signatures.ts),
//   its text the content, its tool_use blocks tool_calls (input as a JSON string);
// - `cache_control` stays on the parts it was set on, and `is_error` on the tool message: the Anthropic adapter
//   reads both, the other adapters build their messages field by field and drop them.
import type { ChatMessage, ContentPart, ReasoningDetail, ToolCall } from '../../core/chat-types.js';
import { GatewayError } from '../../core/gateway-error.js';
import { detailsOfRedacted, detailsOfThinking } from './reasoning-signatures.js';
import { documentParts } from './convert-documents.js';
import type { MessagesImageBlock, MessagesInputMessage, MessagesRequest, MessagesTextBlock, MessagesToolResultBlock } from './wire-types.js';

type TextPart = { type: 'text'; text: string; cache_control?: unknown };

export function invalidRequest(message: string, field: string): GatewayError {
  return new GatewayError(400, message, { field, reason: 'invalid_request' });
}

function textPart(block: MessagesTextBlock): TextPart {
  const part: TextPart = { type: 'text', text: block.text };
  if (block.cache_control) part.cache_control = block.cache_control;
  return part;
}

function imagePart(block: MessagesImageBlock, field: string): ContentPart {
  const source = block.source as { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string } | { type: string };
  let url: string;
  if ('data' in source) url = `data:${source.media_type};base64,${source.data}`;
  else if ('url' in source) url = source.url;
  else throw invalidRequest(`${field}.source.type must be "base64" or "url"`, `${field}.source.type`);
  const part = { type: 'image_url', image_url: { url } } as ContentPart & { cache_control?: unknown };
  if (block.cache_control) part.cache_control = block.cache_control;
  return part;
}

export function systemMessages(system: MessagesRequest['system']): ChatMessage[] {
  if (system === undefined || system === null) return [];
  if (typeof system === 'string') return system === '' ? [] : [{ role: 'system', content: system }];
  const parts = system.map(textPart);
  return parts.length === 0 ? [] : [{ role: 'system', content: parts } as ChatMessage];
}

function toolMessage(block: MessagesToolResultBlock, field: string, images: ContentPart[]): ChatMessage {
  const parts: TextPart[] = [];
  const content = block.content ?? '';
  if (typeof content === 'string') parts.push({ type: 'text', text: content });
  else {
    content.forEach((inner, i) => {
      if (inner.type === 'text') parts.push(textPart(inner));
      else if (inner.type === 'image') images.push(imagePart(inner, `${field}.content[${i}]`));
      else if (inner.type === 'document') images.push(...documentParts(inner, `${field}.content[${i}]`, imagePart, invalidRequest));
    });
  }
  const message: Record<string, unknown> = { role: 'tool', tool_call_id: block.tool_use_id, content: parts.length === 1 && !parts[0].cache_control ? parts[0].text : parts };
  if (block.is_error === true) message.is_error = true;
  if (block.cache_control) message.cache_control = block.cache_control;
  return message as unknown as ChatMessage;
}

function userMessages(content: MessagesInputMessage['content'], field: string): ChatMessage[] {
  if (typeof content === 'string') return [{ role: 'user', content }];
  const tools: ChatMessage[] = [];
  const parts: ContentPart[] = [];
  const toolImages: ContentPart[] = [];
  content.forEach((block, i) => {
    const at = `${field}.content[${i}]`;
    switch (block.type) {
      case 'text':
        parts.push(textPart(block) as ContentPart);
        break;
      case 'image':
        parts.push(imagePart(block, at));
        break;
      case 'document':
        parts.push(...documentParts(block, at, imagePart, invalidRequest));
        break;
      case 'tool_result':
        tools.push(toolMessage(block, at, toolImages));
        break;
      default:
        throw invalidRequest(`${at}: a "${block.type}" block is only allowed in an assistant turn`, `${at}.type`);
    }
  });
  const all = [...parts, ...toolImages];
  return all.length > 0 ? [...tools, { role: 'user', content: all }] : tools;
}

function assistantMessage(content: MessagesInputMessage['content'], field: string): ChatMessage {
  if (typeof content === 'string') return { role: 'assistant', content };
  const texts: TextPart[] = [];
  const details: ReasoningDetail[] = [];
  const toolCalls: ToolCall[] = [];
  content.forEach((block, i) => {
    const at = `${field}.content[${i}]`;
    switch (block.type) {
      case 'text':
        texts.push(textPart(block));
        break;
      case 'thinking':
        details.push(...detailsOfThinking(block.thinking, block.signature, details.length));
        break;
      case 'redacted_thinking':
        details.push(...detailsOfRedacted(block.data, details.length));
        break;
      case 'tool_use':
        toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } });
        break;
      default:
        throw invalidRequest(`${at}: a "${block.type}" block is only allowed in a user turn`, `${at}.type`);
    }
  });
  const message: ChatMessage & { role: 'assistant' } = {
    role: 'assistant',
    content: texts.length === 0 ? null : texts.some((t) => t.cache_control) ? (texts as ContentPart[] as never) : texts.map((t) => t.text).join(''),
  };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (details.length > 0) message.reasoning_details = details;
  return message;
}

function systemTurn(content: MessagesInputMessage['content'], field: string): ChatMessage[] {
  if (typeof content === 'string') return systemMessages(content);
  const texts = content.map((block, i) => {
    if (block.type !== 'text') throw invalidRequest(`${field}.content[${i}]: a system turn holds text blocks only`, `${field}.content[${i}].type`);
    return block;
  });
  return systemMessages(texts);
}

export function convertMessages(messages: readonly MessagesInputMessage[]): ChatMessage[] {
  return messages.flatMap((message, i) => {
    const field = `messages[${i}]`;
    if (message.role === 'assistant') return [assistantMessage(message.content, field)];
    if (message.role === 'system') return systemTurn(message.content, field);
    return userMessages(message.content, field);
  });
}
