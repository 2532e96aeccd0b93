// POST /chat/completions — the chat-completions front door: its request is the internal request, and its renderers
// make the spec's Completion object and chunk stream. The eight steps run in serveGeneration.
import type { GenerationParts } from '../pipeline/generation-parts.js';
import type { Handler } from '../http/openapi-router.js';
import type { ChatCompletionRequest } from '../core/chat-types.js';
import { serveGeneration } from '../pipeline/serve-generation.js';
import { generationClient, generationResponse } from '../http/generation-exchange.js';
import { wantsStream } from '../formats/chat-completions/stream-mode.js';
import { buildCompletion } from '../formats/chat-completions/build-completion.js';
import { ChatStreamRenderer } from '../formats/chat-completions/chat-stream-renderer.js';
import { chatSessionKey } from '../formats/chat-completions/session-key.js';

/** `streamDefault`: what an omitted `stream` means when the Accept header does not say (MODELGATE_STREAM_DEFAULT). */
export function createChatCompletion(generations: GenerationParts, streamDefault: boolean): Handler {
  return (api, ctx) => {
    const request = api.request.requestBody as ChatCompletionRequest;
    return serveGeneration(generations, generationClient(ctx), {
      apiFormat: 'chat_completions',
      request,
      stream: wantsStream(request.stream, ctx.get('accept'), streamDefault),
      renderJson: buildCompletion,
      createStreamRenderer: (identity) => new ChatStreamRenderer(identity),
      sessionKey: chatSessionKey(request, ctx.headers),
    }, generationResponse(ctx));
  };
}
