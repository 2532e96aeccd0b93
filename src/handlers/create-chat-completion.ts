// POST /chat/completions — the chat-completions front door: its request is parsed into the internal request, and its
// renderers make the spec's Completion object and chunk stream. The eight steps run in serveGeneration.
import type { GenerationParts } from '../pipeline/generation-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { serveGeneration } from '../pipeline/serve-generation.js';
import { generationClient, generationResponse } from '../http/generation-exchange.js';
import { wantsStream } from '../formats/chat-completions/stream-mode.js';
import { parseChatRequest } from '../formats/chat-completions/parse-request.js';
import { buildCompletion } from '../formats/chat-completions/build-completion.js';
import { ChatStreamRenderer } from '../formats/chat-completions/chat-stream-renderer.js';
import type { ChatCompletionRequest } from '../formats/chat-completions/wire-types.js';

/** `streamDefault`: what an omitted `stream` means when the Accept header does not say (MODELGATE_STREAM_DEFAULT). */
export function createChatCompletion(generations: GenerationParts, streamDefault: boolean): Handler {
  return (api, ctx) => {
    const body = api.request.requestBody as ChatCompletionRequest;
    const stream = wantsStream(body.stream, ctx.get('accept'), streamDefault);
    return serveGeneration(generations, generationClient(ctx), {
      apiFormat: 'chat_completions',
      request: parseChatRequest(body, stream),
      routing: { models: body.models, provider: body.provider },
      releasePrompt: () => {
        body.messages = [];
      },
      stream,
      renderJson: buildCompletion,
      createStreamRenderer: (identity) => new ChatStreamRenderer(identity),
    }, generationResponse(ctx));
  };
}
