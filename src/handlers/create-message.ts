// POST /messages — the Anthropic Messages front door: its request is parsed into the internal request, its
// renderers make the Message object and Anthropic's event stream. The eight steps run in serveGeneration.
import type { GenerationParts } from '../pipeline/generation-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { serveGeneration } from '../pipeline/serve-generation.js';
import { generationClient, generationResponse } from '../http/generation-exchange.js';
import { toInternalRequest } from '../formats/messages/convert-request.js';
import { gatewayModelId } from '../formats/messages/model-name.js';
import { buildMessage } from '../formats/messages/build-message.js';
import { MessagesStreamRenderer } from '../formats/messages/messages-stream-renderer.js';
import { anthropicClientHeaders } from '../formats/messages/client-headers.js';
import type { MessagesRequest } from '../formats/messages/wire-types.js';
import { messagesSessionKey } from '../formats/messages/session-key.js';

export function createMessage(generations: GenerationParts): Handler {
  return (api, ctx) => {
    const body = api.request.requestBody as MessagesRequest;
    // Anthropic's default: one JSON object unless `stream` is true.
    const stream = body.stream === true;
    return serveGeneration(generations, generationClient(ctx), {
      apiFormat: 'messages',
      request: toInternalRequest(body, gatewayModelId(generations.catalog, body.model), stream),
      stream,
      renderJson: buildMessage,
      createStreamRenderer: (identity, estimatedPromptTokens) => new MessagesStreamRenderer(identity, estimatedPromptTokens),
      clientHeaders: anthropicClientHeaders(ctx.headers),
      sessionKey: messagesSessionKey(body, ctx.headers),
    }, generationResponse(ctx));
  };
}
