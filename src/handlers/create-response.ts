// POST /responses — the OpenAI Responses API front door (formats/responses/door.ts): its facts for planning, the
// client's own request for the native lane (OpenAI's Responses API), its parse into the internal request for every
// other provider (on demand), and renderers for the Response object and the typed event stream. The eight steps run in
// serveGeneration; the opt-in response cache wraps the door's answer (X-Modelgate-Cache).
import type { GenerationParts } from '../pipeline/generation-parts.js';
import type { Handler } from '../http/openapi-router.js';
import { nativeWireOf } from '../http/native-wire.js';
import { serveGenerationCached } from '../http/response-cache-exchange.js';
import type { HitParts } from '../pipeline/response-cache/admit-cache-hit.js';
import { responsesDoor as door } from '../formats/responses/door.js';
import type { ResponseRequest } from '../formats/responses/wire-types.js';
import { GATEWAY_ONLY_FIELDS } from '../formats/shared/gateway-fields.js';
import { autoCacheWanted } from '../formats/shared/auto-cache-header.js';

export function createResponse(generations: GenerationParts & HitParts): Handler {
  return (api, ctx) => {
    const body = api.request.requestBody as ResponseRequest;
    // OpenAI's default for this API: one JSON object unless `stream` is true.
    const stream = body.stream === true;
    // Before the cache and the echo: a stored response cannot be continued on any lane (400).
    const model = body.model;
    const facts = door.readFacts(body, model);
    const autoCache = autoCacheWanted(ctx.headers);
    return serveGenerationCached(generations, ctx, {
      apiFormat: door.apiFormat,
      protocol: door.protocol,
      facts,
      wire: nativeWireOf(ctx, body, GATEWAY_ONLY_FIELDS, door.clientHeaders(ctx.headers)),
      translate: () => door.parse(body, { model, stream, autoCache }),
      stream,
      ...door.renderers(body),
      sessionKey: door.sessionKey(body, ctx.headers),
    });
  };
}
