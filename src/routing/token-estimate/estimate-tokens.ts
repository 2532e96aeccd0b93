// A cheap, deliberately generous token estimate used before the upstream reports real counts: for context-window
// checks, credit reservations and usage of requests cut off before any usage arrived. ~4 characters a token is
// the usual rule for English text with BPE tokenizers; images and PDFs count from their size and pages
// (attachment-tokens.ts), so that a large attachment is priced before it is sent, never after.
import type { ChatCompletionRequest, ContentPart } from '../../core/chat-types.js';
import { imageTokens, pdfTokens } from './attachment-tokens.js';

const CHARS_PER_TOKEN = 4;
const MESSAGE_OVERHEAD_TOKENS = 4;

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
      for (const part of content as ContentPart[]) tokens += partTokens(part);
    }
    const toolCalls = (message as { tool_calls?: unknown }).tool_calls;
    if (toolCalls) tokens += estimateTextTokens(JSON.stringify(toolCalls));
  }
  if (request.tools) tokens += estimateTextTokens(JSON.stringify(request.tools));
  return tokens;
}

function partTokens(part: ContentPart): number {
  switch (part?.type) {
    case 'text':
      return estimateTextTokens(part.text ?? '');
    case 'image_url':
      return imageTokens(part.image_url?.url ?? '');
    case 'file':
      return pdfTokens(part.file?.file_data ?? '');
    default:
      // A part type added to the schema later: a whole unknown image's worth rather than nothing.
      return imageTokens('');
  }
}
