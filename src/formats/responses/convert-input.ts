// Responses `input` items → the internal chat messages. Assistant-side items in a row (reasoning, assistant message,
// function_call) are one assistant turn: the Responses API lists a turn's reasoning, text and calls as separate
// items, the chat format holds them in one message. A user, system or developer message or a function_call_output
// ends the turn.
import type { AssistantResponseMessage, ChatMessage, ContentPart, ReasoningDetail, ToolCall } from '../../core/chat-types.js';
import { GatewayError } from '../../core/gateway-error.js';
import { decodeReasoningContent } from './reasoning-content.js';
import type { ResponseInputContent, ResponseInputItem, ResponseInputMessage, ResponseReasoningItem } from './wire-types.js';

interface AssistantTurn {
  text: string[];
  refusal: string[];
  reasoning: string[];
  details: ReasoningDetail[];
  toolCalls: ToolCall[];
}

const KNOWN_ITEMS = new Set(['message', 'function_call', 'function_call_output', 'reasoning']);

export function convertInput(input: string | ResponseInputItem[], instructions: string | null | undefined): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (typeof instructions === 'string' && instructions !== '') messages.push({ role: 'system', content: instructions });
  if (typeof input === 'string') {
    messages.push({ role: 'user', content: input });
    return messages;
  }
  let turn: AssistantTurn | undefined;
  const assistant = (): AssistantTurn => (turn ??= { text: [], refusal: [], reasoning: [], details: [], toolCalls: [] });
  const flush = () => {
    if (turn) messages.push(assistantMessage(turn));
    turn = undefined;
  };
  input.forEach((item, index) => {
    const type = (item as { type?: string }).type ?? 'message';
    if (!KNOWN_ITEMS.has(type)) {
      throw new GatewayError(400, `Invalid request: input items of type "${type}" are not supported; send message, function_call, function_call_output or reasoning items`, {
        field: `input[${index}]`,
      });
    }
    if (type === 'reasoning') {
      addReasoning(assistant(), item as ResponseReasoningItem);
    } else if (type === 'function_call') {
      const call = item as Extract<ResponseInputItem, { type: 'function_call' }>;
      assistant().toolCalls.push({ id: call.call_id, type: 'function', function: { name: call.name, arguments: call.arguments } });
    } else if (type === 'function_call_output') {
      flush();
      const output = item as Extract<ResponseInputItem, { type: 'function_call_output' }>;
      messages.push({ role: 'tool', tool_call_id: output.call_id, content: typeof output.output === 'string' ? output.output : joinText(output.output) });
    } else {
      const message = item as ResponseInputMessage;
      if (message.role === 'assistant') {
        const target = assistant();
        for (const part of typeof message.content === 'string' ? [{ type: 'output_text' as const, text: message.content }] : message.content) {
          if (part.type === 'refusal') target.refusal.push(part.refusal);
          else if (part.type === 'output_text' || part.type === 'input_text') target.text.push(part.text);
        }
      } else {
        flush();
        messages.push(otherMessage(message));
      }
    }
  });
  flush();
  return messages;
}

function addReasoning(turn: AssistantTurn, item: ResponseReasoningItem): void {
  const summary = item.summary.map((part) => part.text).join('\n\n');
  if (summary !== '') turn.reasoning.push(summary);
  if (typeof item.encrypted_content === 'string' && item.encrypted_content !== '') turn.details.push(...decodeReasoningContent(item.encrypted_content));
}

function assistantMessage(turn: AssistantTurn): ChatMessage {
  const message: AssistantResponseMessage = { role: 'assistant', content: turn.text.length ? turn.text.join('') : null };
  if (turn.toolCalls.length) message.tool_calls = turn.toolCalls;
  if (turn.reasoning.length) message.reasoning = turn.reasoning.join('\n\n');
  if (turn.details.length) message.reasoning_details = turn.details;
  if (turn.refusal.length) message.refusal = turn.refusal.join('');
  return message as ChatMessage;
}

function otherMessage(message: ResponseInputMessage): ChatMessage {
  const role = message.role as 'user' | 'system' | 'developer';
  if (typeof message.content === 'string') return { role, content: message.content };
  if (role !== 'user') return { role, content: joinText(message.content) };
  return { role, content: message.content.map(userPart) };
}

function userPart(part: ResponseInputContent): ContentPart {
  switch (part.type) {
    case 'input_image':
      return { type: 'image_url', image_url: { url: part.image_url, ...(part.detail ? { detail: part.detail } : {}) } };
    case 'refusal':
      return { type: 'text', text: part.refusal };
    default:
      return { type: 'text', text: part.text };
  }
}

function joinText(parts: ResponseInputContent[]): string {
  return parts.map((part) => (part.type === 'refusal' ? part.refusal : part.type === 'input_image' ? '' : part.text)).filter((text) => text !== '').join('\n');
}
