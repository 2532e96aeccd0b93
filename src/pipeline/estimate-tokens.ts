// A cheap, deliberately generous token estimate used before the upstream reports real counts: for context-window
// checks, credit reservations and usage of requests cut off before any usage arrived. ~4 characters a token is
// the usual rule for English text with BPE tokenizers; images count a flat amount.
import type { ChatCompletionRequest } from '../core/chat-types.js';

const CHARS_PER_TOKEN = 4;
const MESSAGE_OVERHEAD_TOKENS = 4;
const IMAGE_TOKENS = 1_000;

export function estimateTokensForChars(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

export function estimateTextTokens(text: string): number {
  return estimateTokensForChars(text.length);
}

export function estimatePromptTokens(request: ChatCompletionRequest): number {
  let tokens = 3;
  for (const message of request.messages) {
    tokens += MESSAGE_OVERHEAD_TOKENS;
    const content = (message as { content?: unknown }).content;
    if (typeof content === 'string') tokens += estimateTextTokens(content);
    else if (Array.isArray(content)) {
      for (const part of content as { type?: string; text?: string }[]) {
        tokens += part.type === 'text' ? estimateTextTokens(part.text ?? '') : IMAGE_TOKENS;
      }
    }
    const toolCalls = (message as { tool_calls?: unknown }).tool_calls;
    if (toolCalls) tokens += estimateTextTokens(JSON.stringify(toolCalls));
  }
  if (request.tools) tokens += estimateTextTokens(JSON.stringify(request.tools));
  return tokens;
}
