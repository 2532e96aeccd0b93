// POST /messages — the Anthropic Messages front door: its facts for planning, the client's own request and
// `anthropic-*` headers for the native lane (Anthropic upstreams), its parse into the internal request for the other
// providers (on demand), and renderers for the Message object and Anthropic's event stream. The eight steps run in
// serveGeneration; the opt-in response cache wraps the door's answer (X-Modelgate-Cache).
import type { GenerationParts } from '../pipeline/generation-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { nativeWireOf } from '../http/native-wire.js';
import { serveGenerationCached } from '../http/response-cache-exchange.js';
import type { HitParts } from '../pipeline/response-cache/admit-cache-hit.js';
import { parseMessagesRequest } from '../formats/messages/parse-request.js';
import { gatewayModelId } from '../formats/messages/model-name.js';
import { buildMessage } from '../formats/messages/build-message.js';
import { MessagesStreamRenderer } from '../formats/messages/messages-stream-renderer.js';
import { anthropicClientHeaders } from '../formats/messages/client-headers.js';
import { messagesRequestFacts } from '../formats/messages/request-facts.js';
import type { MessagesRequest } from '../formats/messages/wire-types.js';
import { messagesSessionKey } from '../formats/messages/session-key.js';
import { GATEWAY_ONLY_FIELDS } from '../formats/shared/gateway-fields.js';

export function createMessage(generations: GenerationParts & HitParts): Handler {
  return (api, ctx) => {
    const body = api.request.requestBody as MessagesRequest;
    // Anthropic's default: one JSON object unless `stream` is true.
    const stream = body.stream === true;
    const model = gatewayModelId(generations.catalog, body.model);
    const clientHeaders = anthropicClientHeaders(ctx.headers);
    return serveGenerationCached(generations, ctx, {
      apiFormat: 'messages',
      protocol: 'messages',
      facts: messagesRequestFacts(body, model),
      wire: nativeWireOf(ctx, body, GATEWAY_ONLY_FIELDS, clientHeaders),
      translate: () => parseMessagesRequest(body, model, stream),
      stream,
      renderJson: buildMessage,
      createStreamRenderer: (identity, estimatedPromptTokens) =>
        new MessagesStreamRenderer(identity, estimatedPromptTokens),
      sessionKey: messagesSessionKey(body, ctx.headers),
    });
  };
}
