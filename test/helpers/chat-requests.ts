// Test helper: requests written the way a chat-completions client writes them, parsed by the chat door into the
// internal GenerationRequest, for adapter tests whose cases read best in the most common wire format.
import type { GenerationRequest } from '../../src/core/generation-request.js';
import { parseChatRequest } from '../../src/formats/chat-completions/parse-request.js';
import type { ChatCompletionRequest } from '../../src/formats/chat-completions/wire-types.js';

export type {
  ChatCompletionRequest,
  ChatMessage,
  ContentPart,
  ReasoningDetail,
  ToolCall,
  ToolDefinition,
} from '../../src/formats/chat-completions/wire-types.js';

export function fromChat(request: ChatCompletionRequest, stream = request.stream === true): GenerationRequest {
  return parseChatRequest(request, stream);
}
