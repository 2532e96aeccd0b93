// Automatic prompt-cache breakpoints. Anthropic caches a prompt prefix only up to a block marked with
// `cache_control`; clients of the chat and Responses doors cannot mark one (or do not know to), so without help every
// turn of a conversation pays the full input price. As OpenRouter and LiteLLM do, a request that sets no breakpoint
// itself gets them on its stable prefix: the last tool (the tool definitions), the last system block (the
// instructions), and the last message's last block (the conversation so far, which the next turn repeats). That is 3
// of Anthropic's 4. A 5-minute write costs 1.25× the input price, a read 0.1×: from a conversation's second turn on,
// the prefix is read, not paid in full. A request too short to cache (under the model's minimum) is served as usual.
import type {
  AnthropicCacheControl,
  AnthropicMessage,
  AnthropicRequestBody,
  AnthropicTextBlock,
} from './wire-types.js';

const EPHEMERAL: AnthropicCacheControl = { type: 'ephemeral' };

type Marked = { cache_control?: AnthropicCacheControl };

function marked(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(marked);
  if (value === null || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  return record.cache_control !== undefined || marked(record.content);
}

/** True when the client set a breakpoint anywhere (tools, system, any block, inside tool results too). */
export function hasBreakpoint(body: AnthropicRequestBody): boolean {
  return (
    marked(body.tools ?? []) || marked(body.system ?? []) || body.messages.some((message) => marked(message.content))
  );
}

/** Thinking cannot carry cache_control, and Anthropic refuses it on empty text. */
function cacheable(block: { type: string; text?: string }): boolean {
  if (block.type === 'thinking' || block.type === 'redacted_thinking') return false;
  return block.type !== 'text' || (block.text ?? '').trim() !== '';
}

function markLastMessage(message: AnthropicMessage): void {
  if (typeof message.content === 'string') {
    if (message.content.trim() === '') return;
    const block: AnthropicTextBlock = { type: 'text', text: message.content, cache_control: EPHEMERAL };
    message.content = [block] as never;
    return;
  }
  const blocks = message.content as Array<{ type: string; text?: string } & Marked>;
  const last = [...blocks].reverse().find(cacheable);
  if (last) last.cache_control = EPHEMERAL;
}

/** Sets the breakpoints on a request that has none (see the file comment); a request with one is left as it is. */
export function addAutoBreakpoints(body: AnthropicRequestBody): void {
  if (hasBreakpoint(body)) return;
  const lastTool = body.tools?.at(-1);
  if (lastTool) lastTool.cache_control = EPHEMERAL;
  if (typeof body.system === 'string') {
    if (body.system.trim() !== '') body.system = [{ type: 'text', text: body.system, cache_control: EPHEMERAL }];
  } else if (body.system && body.system.length > 0) {
    const last = [...body.system].reverse().find(cacheable);
    if (last) last.cache_control = EPHEMERAL;
  }
  const lastMessage = body.messages.at(-1);
  if (lastMessage) markLastMessage(lastMessage);
}
