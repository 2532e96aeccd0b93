// The internal instructions and conversation → Anthropic's `system` + alternating user/assistant turns.
// - instructions, wherever they were given, are hoisted into the top-level `system` (Anthropic has no system role
//   inside `messages`);
// - tool results are `tool_result` blocks (with their images and documents, `is_error` and cache breakpoint), first
//   in their user turn, so consecutive results share one turn;
// - consecutive turns of the same role are merged into one, as Anthropic's turn model requires;
// - an assistant turn keeps its blocks' order: thinking (only Claude's own, restored byte for byte), text, tool_use.
import type { AssistantBlock, ToolCallBlock, ToolResultBlock, UserBlock } from '../../core/content-blocks.js';
import type { GenerationRequest } from '../../core/generation-request.js';
import { isRecord } from '../payload-readers.js';
import { documentBlock, hasText, imageBlock, textBlock, textBlocks, withCache } from './convert-content.js';
import { invalidRequest } from './invalid-request.js';
import { restoreReasoningBlock } from './reasoning-blocks.js';
import type {
  AnthropicAssistantBlock,
  AnthropicDocumentBlock,
  AnthropicImageBlock,
  AnthropicMessage,
  AnthropicTextBlock,
  AnthropicToolResultBlock,
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
 * Arguments are JSON text inside the gateway and an object at Anthropic. An empty string means "no arguments" (some
 * clients send it for parameterless tools). Anything else that is not a JSON object is answered 400: silently sending
 * `{}` would replay a different call than the one the model made.
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

function toolUse(call: ToolCallBlock, field: string): AnthropicToolUseBlock {
  return withCache<AnthropicToolUseBlock>(
    { type: 'tool_use', id: toolUseId(call.id), name: call.name, input: toolInput(call.input, `${field}.input`) },
    call.cache,
  );
}

function toolResult(block: ToolResultBlock, field: string): AnthropicToolResultBlock {
  const result: AnthropicToolResultBlock = { type: 'tool_result', tool_use_id: toolUseId(block.callId) };
  const plain = block.content.every((inner) => inner.type === 'text' && !inner.cache);
  if (plain) {
    // Content is optional on a tool_result; blank text would be rejected. Plain text goes in the short string form.
    const text = block.content.map((inner) => (inner.type === 'text' ? inner.text : '')).join('');
    if (hasText(text)) result.content = text;
  } else {
    type Inner = AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock;
    const content = block.content.flatMap((inner, i): Inner[] => {
      const at = `${field}.content[${i}]`;
      if (inner.type === 'text') return hasText(inner.text) ? [textBlock(inner)] : [];
      return [inner.type === 'image' ? imageBlock(inner, at) : documentBlock(inner, at)];
    });
    if (content.length > 0) result.content = content;
  }
  if (block.isError === true) result.is_error = true;
  return withCache(result, block.cache);
}

function userBlocks(blocks: readonly UserBlock[], field: string): AnthropicUserBlock[] {
  // biome-ignore lint/suspicious/useIterableCallbackReturn: the switch covers every UserBlock type, and tsc checks that each case returns.
  return blocks.flatMap((block, i): AnthropicUserBlock[] => {
    const at = `${field}[${i}]`;
    switch (block.type) {
      case 'text':
        return hasText(block.text) ? [textBlock(block)] : [];
      case 'image':
        return [imageBlock(block, at)];
      case 'document':
        return [documentBlock(block, at)];
      case 'tool_result':
        return [toolResult(block, at)];
    }
  });
}

function assistantBlocks(blocks: readonly AssistantBlock[], field: string): AnthropicAssistantBlock[] {
  return blocks.flatMap((block, i): AnthropicAssistantBlock[] => {
    switch (block.type) {
      case 'reasoning': {
        const restored = restoreReasoningBlock(block);
        return restored ? [restored] : [];
      }
      case 'text':
        return hasText(block.text) ? [textBlock(block)] : [];
      case 'tool_call':
        return [toolUse(block, `${field}[${i}]`)];
      default:
        return []; // a refusal is no content Anthropic takes back
    }
  });
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
  if (last?.role !== 'assistant') return;
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

export function convertMessages(request: Pick<GenerationRequest, 'system' | 'messages'>): ConvertedMessages {
  const system: AnthropicTextBlock[] = request.system.flatMap((instruction) => textBlocks(instruction.content));
  const turns: Turn[] = [];
  request.messages.forEach((turn, i) => {
    const field = `messages[${i}].content`;
    if (turn.role === 'system') system.push(...textBlocks(turn.content));
    else if (turn.role === 'user') turns.push({ role: 'user', blocks: userBlocks(turn.content, field) });
    else turns.push({ role: 'assistant', blocks: assistantBlocks(turn.content, field) });
  });
  const merged = mergeTurns(turns);
  trimPrefill(merged);
  const out: ConvertedMessages = { messages: merged.map(toMessage) };
  if (system.length === 1 && !system[0].cache_control) out.system = system[0].text;
  else if (system.length > 0) out.system = system;
  return out;
}
