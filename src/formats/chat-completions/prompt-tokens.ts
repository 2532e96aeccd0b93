// The chat door's prompt estimate, read from its wire body (core/request-facts.ts): the same ~4 characters a token
// and attachment sizes as the internal estimate (routing/token-estimate/estimate-tokens.ts), walked over the chat
// messages as they arrived, so a request that goes natively to an OpenAI-compatible upstream is never parsed into
// the internal request to be admitted.
import type { ChatCompletionRequest, ContentPart, OtherContentPart } from './wire-types.js';
import { estimateTextTokens } from '../../routing/token-estimate/estimate-tokens.js';
import { imageTokens, pdfTokens } from '../../routing/token-estimate/attachment-tokens.js';

const REQUEST_OVERHEAD_TOKENS = 3;
const MESSAGE_OVERHEAD_TOKENS = 4;

export function chatPromptTokens(request: ChatCompletionRequest): number {
  let tokens = REQUEST_OVERHEAD_TOKENS;
  for (const message of request.messages) {
    tokens += MESSAGE_OVERHEAD_TOKENS;
    const content = (message as { content?: unknown }).content;
    if (typeof content === 'string') tokens += estimateTextTokens(content);
    else if (Array.isArray(content)) {
      for (const part of content as Array<ContentPart | OtherContentPart>) tokens += partTokens(part as ContentPart);
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
