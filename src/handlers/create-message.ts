// POST /messages — the Anthropic Messages front door: its facts for planning, the client's own request and `anthropic-*`
// headers for the native lane (Anthropic upstreams), its translation into the internal request for the other
// providers, and renderers for the Message object and Anthropic's event stream. The eight steps run in serveGeneration.
import type { GenerationParts } from '../pipeline/generation-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { serveGeneration } from '../pipeline/serve-generation.js';
import { generationClient, generationResponse } from '../http/generation-exchange.js';
import { nativeWireOf, sessionHeaderOf } from '../http/native-wire.js';
import { toInternalRequest } from '../formats/messages/convert-request.js';
import { gatewayModelId } from '../formats/messages/model-name.js';
import { buildMessage } from '../formats/messages/build-message.js';
import { MessagesStreamRenderer } from '../formats/messages/messages-stream-renderer.js';
import { anthropicClientHeaders } from '../formats/messages/client-headers.js';
import { messagesRequestFacts } from '../formats/messages/request-facts.js';
import { translatableMessages } from '../formats/messages/translatable-blocks.js';
import { GATEWAY_ONLY_FIELDS } from '../formats/shared/gateway-fields.js';
import type { MessagesRequest } from '../formats/messages/wire-types.js';

export function createMessage(generations: GenerationParts): Handler {
  return (api, ctx) => {
    const body = api.request.requestBody as MessagesRequest;
    // Anthropic's default: one JSON object unless `stream` is true.
    const stream = body.stream === true;
    const model = gatewayModelId(generations.catalog, body.model);
    return serveGeneration(generations, generationClient(ctx), {
      apiFormat: 'messages',
      protocol: 'messages',
      facts: messagesRequestFacts(body, model, sessionHeaderOf(ctx)),
      wire: nativeWireOf(ctx, body, GATEWAY_ONLY_FIELDS, anthropicClientHeaders(ctx.headers)),
      translate: () => toInternalRequest(translatableMessages(body, model), model, stream),
      stream,
      renderJson: buildMessage,
      createStreamRenderer: (identity, estimatedPromptTokens) => new MessagesStreamRenderer(identity, estimatedPromptTokens),
    }, generationResponse(ctx));
  };
}
