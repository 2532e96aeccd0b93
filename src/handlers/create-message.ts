// POST /messages — the Anthropic Messages front door (formats/messages/door.ts): its facts for planning, the client's
// own request and `anthropic-*` headers for the native lane (Anthropic upstreams), its parse into the internal request
// for the other providers (on demand), and renderers for the Message object and Anthropic's event stream. The eight
// steps run in serveGeneration; the opt-in response cache wraps the door's answer (X-Modelgate-Cache).
import type { GenerationParts } from '../pipeline/generation-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { nativeWireOf } from '../http/native-wire.js';
import { serveGenerationCached } from '../http/response-cache-exchange.js';
import type { HitParts } from '../pipeline/response-cache/admit-cache-hit.js';
import { messagesDoor as door } from '../formats/messages/door.js';
import { gatewayModelId } from '../formats/messages/model-name.js';
import type { MessagesRequest } from '../formats/messages/wire-types.js';
import { GATEWAY_ONLY_FIELDS } from '../formats/shared/gateway-fields.js';

export function createMessage(generations: GenerationParts & HitParts): Handler {
  return (api, ctx) => {
    const body = api.request.requestBody as MessagesRequest;
    // Anthropic's default: one JSON object unless `stream` is true.
    const stream = body.stream === true;
    const model = gatewayModelId(generations.catalog, body.model);
    return serveGenerationCached(generations, ctx, {
      apiFormat: door.apiFormat,
      protocol: door.protocol,
      facts: door.readFacts(body, model),
      wire: nativeWireOf(ctx, body, GATEWAY_ONLY_FIELDS, door.clientHeaders(ctx.headers)),
      translate: () => door.parse(body, { model, stream, autoCache: false }),
      stream,
      ...door.renderers(body),
      sessionKey: door.sessionKey(body, ctx.headers),
    });
  };
}
