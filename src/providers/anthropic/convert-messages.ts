// Gateway messages → Anthropic's `system` + alternating user/assistant turns.
// - system and developer messages, wherever they appear, are hoisted into the top-level `system`
//   (Anthropic has no system role inside `messages`);
// - tool messages become `tool_result` blocks of a user turn, so consecutive results share one turn;
// - consecutive turns of the same role are merged into one, as Anthropic's turn model requires;
// - an assistant turn replays its reasoning blocks first, then its text, then its tool calls, which is
//   the order Claude produced them in (thinking always precedes the text and tool_use it led to).
import type { ChatMessage, ToolCall } from '../../core/chat-types.js';
import { isRecord } from '../payload-readers.js';
import { cacheControlOf, hasText, joinText, textBlocks, userBlocks } from './convert-content.js';
import { invalidRequest } from './invalid-request.js';
import { restoreReasoningBlocks } from './reasoning-blocks.js';
import type {
  AnthropicAssistantBlock,
  AnthropicMessage,
  AnthropicTextBlock,
  AnthropicToolUseBlock,
  AnthropicUserBlock,
} from './wire-types.js';

export interface ConvertedMessages {
  system?: string | AnthropicTextBlock[];
  messages: AnthropicMessage[];
}

type Turn = { role: 'user'; blocks: AnthropicUserBlock[] } | { role: 'assistant'; blocks: AnthropicAssistantBlock[] };

/**
 * Anthropic tool ids must match ^[a-zA-Z0-9_-]+$. Ids minted by other vendors (a conversation that
 * switched models) may not, so both the tool_use id and the tool_result reference are rewritten the
 * same deterministic way and keep pointing at each other.
 */
export function toolUseId(id: string): string {
  return id.replace(/[^a-zA-Z0-9_-]/g, '_') || '_';
}

/**
 * Arguments are a JSON string in the gateway format and an object at Anthropic. An empty string means
 * "no arguments" (some clients send it for parameterless tools). Anything else that is not a JSON object
 * is answered 400: silently sending `{}` would replay a different call than the one the model made.
 */
function toolInput(args: string, field: string): Record<string, unknown> {
  if (args.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    throw invalidRequest(`${field} is not valid JSON`, field, 'invalid_tool_arguments');
  }
  if (!isRecord(parsed)) throw invalidRequest(`${field} must encode a JSON object`, field, 'invalid_tool_arguments');
  return parsed;
}

function toolUse(call: ToolCall, field: string): AnthropicToolUseBlock {
  return {
    type: 'tool_use',
    id: toolUseId(call.id),
    name: call.function.name,
    input: toolInput(call.function.arguments, `${field}.function.arguments`),
  };
}

function turnOf(message: Exclude<ChatMessage, { role: 'system' | 'developer' }>, i: number): Turn {
  const field = `messages[${i}]`;
  switch (message.role) {
    case 'user':
      return { role: 'user', blocks: userBlocks(message.content, `${field}.content`) };
    case 'tool': {
      const text = joinText(message.content);
      // Content is optional on a tool_result; blank text would be rejected.
      const result: AnthropicUserBlock = { type: 'tool_result', tool_use_id: toolUseId(message.tool_call_id) };
      if (hasText(text)) result.content = text;
      // Extras the Anthropic Messages front door carries on the internal tool message: the failure flag and the
      // caching breakpoint of its tool_result block (other adapters build tool messages field by field).
      if ((message as { is_error?: unknown }).is_error === true) result.is_error = true;
      const parts = typeof message.content === 'string' ? [] : message.content;
      const cacheControl = cacheControlOf(message) ?? parts.map(cacheControlOf).filter((c) => c !== undefined).at(-1);
      if (cacheControl) result.cache_control = cacheControl;
      return { role: 'user', blocks: [result] };
    }
    case 'assistant':
      return {
        role: 'assistant',
        blocks: [
          ...restoreReasoningBlocks(message.reasoning_details),
          ...textBlocks(message.content),
          ...(message.tool_calls ?? []).map((call, j) => toolUse(call, `${field}.tool_calls[${j}]`)),
        ],
      };
  }
}

/** Anthropic wants the tool_result blocks first in the user turn that answers a tool_use turn. */
function toolResultsFirst(blocks: AnthropicUserBlock[]): AnthropicUserBlock[] {
  return [...blocks.filter((b) => b.type === 'tool_result'), ...blocks.filter((b) => b.type !== 'tool_result')];
}

function mergeTurns(turns: Turn[]): Turn[] {
  const merged: Turn[] = [];
  for (const turn of turns) {
    if (turn.blocks.length === 0) continue; // an empty message adds nothing and Anthropic rejects empty turns
    const last = merged.at(-1);
    if (last && last.role === turn.role) (last.blocks as unknown[]).push(...turn.blocks);
    else merged.push({ role: turn.role, blocks: [...turn.blocks] } as Turn);
  }
  for (const turn of merged) if (turn.role === 'user') turn.blocks = toolResultsFirst(turn.blocks);
  return merged;
}

/** Anthropic rejects a final (prefill) assistant turn whose text ends in whitespace. */
function trimPrefill(turns: Turn[]): void {
  const last = turns.at(-1);
  if (!last || last.role !== 'assistant') return;
  const block = last.blocks.at(-1);
  if (block?.type !== 'text') return;
  const text = block.text.trimEnd();
  if (hasText(text)) block.text = text;
  else last.blocks.pop();
  if (last.blocks.length === 0) turns.pop();
}

function toMessage(turn: Turn): AnthropicMessage {
  // One plain text block is sent in the short string form; both mean the same to Anthropic.
  const only = turn.blocks.length === 1 ? turn.blocks[0] : undefined;
  if (only?.type === 'text' && !only.cache_control) return { role: turn.role, content: only.text };
  return turn.role === 'user' ? { role: 'user', content: turn.blocks } : { role: 'assistant', content: turn.blocks };
}

export function convertMessages(messages: readonly ChatMessage[]): ConvertedMessages {
  const system: AnthropicTextBlock[] = [];
  const turns: Turn[] = [];
  messages.forEach((message, i) => {
    if (message.role === 'system' || message.role === 'developer') system.push(...textBlocks(message.content));
    else turns.push(turnOf(message, i));
  });
  const merged = mergeTurns(turns);
  trimPrefill(merged);
  const out: ConvertedMessages = { messages: merged.map(toMessage) };
  if (system.length === 1 && !system[0].cache_control) out.system = system[0].text;
  else if (system.length > 0) out.system = system;
  return out;
}
