// Chat messages → the internal conversation. The leading system and developer messages are the request's
// instructions; later ones stay system turns where they were given. A tool message is a user turn holding one
// tool_result (consecutive ones are merged by the adapters whose vendors want that). An assistant message's reasoning
// text and reasoning_details become reasoning records (see formats/shared/reasoning-details.ts), its text, refusal
// and tool calls blocks of their own, in that order. `cache_control` on a part becomes the block's cache breakpoint.
import { GatewayError } from '../../core/gateway-error.js';
import type {
  AssistantBlock,
  CacheBreakpoint,
  DocumentBlock,
  ImageBlock,
  TextBlock,
  UserBlock,
} from '../../core/content-blocks.js';
import type { Instruction, Turn } from '../../core/generation-request.js';
import { mediaSourceOfUrl } from '../shared/media-source.js';
import { reasoningOfDetails } from '../shared/reasoning-details.js';
import type { ChatMessage, ContentPart, OtherContentPart } from './wire-types.js';

type TextPart = { type: 'text'; text: string; cache_control?: unknown };
type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

/** A part's `cache_control` (OpenRouter's shape, Anthropic's values) → a breakpoint. */
export function cacheOf(part: unknown): CacheBreakpoint | undefined {
  const value = (part as { cache_control?: unknown } | null)?.cache_control;
  if (typeof value !== 'object' || value === null) return undefined;
  const ttl = (value as { ttl?: unknown }).ttl;
  return typeof ttl === 'string' ? { ttl } : {};
}

function textBlock(text: string, part?: unknown): TextBlock {
  const block: TextBlock = { type: 'text', text };
  const cache = cacheOf(part);
  if (cache) block.cache = cache;
  return block;
}

function textBlocks(content: string | readonly TextPart[] | null | undefined): TextBlock[] {
  if (content === null || content === undefined) return [];
  return typeof content === 'string' ? [textBlock(content)] : content.map((part) => textBlock(part.text, part));
}

const MODELLED_PARTS = new Set(['text', 'image_url', 'file']);

function userBlock(wire: ContentPart | OtherContentPart): UserBlock {
  if (!MODELLED_PARTS.has(wire.type)) {
    // A part type the door accepts for the native lane (OpenAI's input_audio, ...): no other provider can take it.
    throw new GatewayError(
      400,
      `Invalid request: content parts of type "${wire.type}" are sent only to OpenAI-compatible providers, as they are; this model is served by another provider`,
      {
        field: 'messages',
        reason: 'content_type_not_supported',
      },
    );
  }
  const part = wire as ContentPart;
  switch (part.type) {
    case 'image_url': {
      const image: ImageBlock = { type: 'image', source: mediaSourceOfUrl(part.image_url.url) };
      if (part.image_url.detail) image.detail = part.image_url.detail;
      const cache = cacheOf(part);
      if (cache) image.cache = cache;
      return image;
    }
    case 'file': {
      const document: DocumentBlock = { type: 'document', source: mediaSourceOfUrl(part.file.file_data) };
      if (part.file.filename) document.title = part.file.filename;
      const cache = cacheOf(part);
      if (cache) document.cache = cache;
      return document;
    }
    default:
      return textBlock(part.text, part);
  }
}

function assistantBlocks(message: AssistantMessage): AssistantBlock[] {
  const blocks: AssistantBlock[] = [];
  if (typeof message.reasoning === 'string' && message.reasoning !== '')
    blocks.push({ type: 'reasoning', text: message.reasoning });
  blocks.push(...reasoningOfDetails(message.reasoning_details));
  blocks.push(...textBlocks(message.content as string | TextPart[] | null | undefined));
  if (typeof message.refusal === 'string' && message.refusal !== '')
    blocks.push({ type: 'refusal', text: message.refusal });
  for (const call of message.tool_calls ?? []) {
    blocks.push({
      type: 'tool_call',
      id: call.id,
      name: call.function.name,
      kind: 'function',
      input: call.function.arguments,
    });
  }
  return blocks;
}

function instruction(message: Extract<ChatMessage, { role: 'system' | 'developer' }>): Instruction {
  const out: Instruction = { content: textBlocks(message.content as string | TextPart[]) };
  if (message.role === 'developer') out.developer = true;
  if (typeof message.name === 'string' && message.name !== '') out.name = message.name;
  return out;
}

function withName<T extends Turn>(turn: T, name: unknown): T {
  if (typeof name === 'string' && name !== '') (turn as { name?: string }).name = name;
  return turn;
}

function turnOf(message: ChatMessage): Turn {
  switch (message.role) {
    case 'system':
    case 'developer':
      return { role: 'system', ...instruction(message) };
    case 'user':
      return withName(
        {
          role: 'user',
          content: typeof message.content === 'string' ? [textBlock(message.content)] : message.content.map(userBlock),
        },
        message.name,
      );
    case 'assistant':
      return withName({ role: 'assistant', content: assistantBlocks(message) }, message.name);
    case 'tool':
      return {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            callId: message.tool_call_id,
            content: textBlocks(message.content as string | TextPart[]),
          },
        ],
      };
  }
}

export function parseMessages(messages: readonly ChatMessage[]): { system: Instruction[]; messages: Turn[] } {
  const system: Instruction[] = [];
  let at = 0;
  for (; at < messages.length; at++) {
    const message = messages[at];
    if (message.role !== 'system' && message.role !== 'developer') break;
    system.push(instruction(message));
  }
  return { system, messages: messages.slice(at).map(turnOf) };
}
