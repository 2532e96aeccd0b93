// POST /chat/completions — the chat-completions front door: its facts for planning, the client's own request for the
// native lane (OpenAI-compatible upstreams), its body as the internal request for the translated lane, and renderers
// for the spec's Completion object and chunk stream. The eight steps run in serveGeneration.
import type { GenerationParts } from '../pipeline/generation-parts.js';
import type { Handler } from '../http/openapi-router.js';
import type { ChatCompletionRequest } from '../core/chat-types.js';
import { serveGeneration } from '../pipeline/serve-generation.js';
import { generationClient, generationResponse } from '../http/generation-exchange.js';
import { nativeWireOf, sessionHeaderOf } from '../http/native-wire.js';
import { wantsStream } from '../formats/chat-completions/stream-mode.js';
import { buildCompletion } from '../formats/chat-completions/build-completion.js';
import { ChatStreamRenderer } from '../formats/chat-completions/chat-stream-renderer.js';
import { chatRequestFacts } from '../formats/chat-completions/request-facts.js';
import { GATEWAY_ONLY_FIELDS } from '../formats/shared/gateway-fields.js';

/** `streamDefault`: what an omitted `stream` means when the Accept header does not say (MODELGATE_STREAM_DEFAULT). */
export function createChatCompletion(generations: GenerationParts, streamDefault: boolean): Handler {
  return (api, ctx) => {
    const request = api.request.requestBody as ChatCompletionRequest;
    return serveGeneration(generations, generationClient(ctx), {
      apiFormat: 'chat_completions',
      protocol: 'chat',
      facts: chatRequestFacts(request, sessionHeaderOf(ctx)),
      wire: nativeWireOf(ctx, request, GATEWAY_ONLY_FIELDS),
      translate: () => request,
      stream: wantsStream(request.stream, ctx.get('accept'), streamDefault),
      renderJson: buildCompletion,
      createStreamRenderer: (identity) => new ChatStreamRenderer(identity),
    }, generationResponse(ctx));
  };
}
